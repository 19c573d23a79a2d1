/**
 * Locus's side of an ACP connection: the handlers that serve the agent's file reads and writes,
 * terminals and permission requests, each through Locus's boundary (acp-files.ts,
 * acp-terminals.ts, acp-permission.ts). What Locus refuses is also reported to the run's log as a
 * failed `refused` card, so a reader sees it next to the agent's own tool calls.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ToolContext } from "../tool.ts";
import { insideWorktree, readForAgent, writeForAgent } from "./acp-files.ts";
import { answerPermission } from "./acp-permission.ts";
import type { AcpTerminals } from "./acp-terminals.ts";

export interface AcpClientOptions {
  readonly context: ToolContext;
  readonly readOnly: boolean;
  readonly terminals: AcpTerminals;
  /** A refusal, for the run's tool cards. */
  readonly refused: (what: string, reason: string) => void;
  /** A worktree-relative path the agent wrote. */
  readonly written: (path: string) => void;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createAcpClient(options: AcpClientOptions): acp.ClientApp {
  const { context, readOnly, terminals, refused } = options;
  return acp
    .client({ name: "locus" })
    .onRequest(acp.methods.client.fs.readTextFile, async ({ params }) => {
      try {
        return { content: await readForAgent(context.cwd, params) };
      } catch (error) {
        // A missing file is an answer, not a refusal.
        if (error instanceof acp.RequestError && error.code !== -32002)
          refused(`read ${params.path}`, error.message);
        throw error;
      }
    })
    .onRequest(acp.methods.client.fs.writeTextFile, async ({ params }) => {
      try {
        const result = await writeForAgent(context, params, readOnly);
        for (const path of result.filesWritten ?? []) options.written(path);
        return {};
      } catch (error) {
        refused(`write ${params.path}`, messageOf(error));
        throw error;
      }
    })
    .onRequest(acp.methods.client.terminal.create, ({ params }) => terminals.create(params))
    .onRequest(acp.methods.client.terminal.output, ({ params }) => terminals.output(params))
    .onRequest(acp.methods.client.terminal.waitForExit, ({ params }) => terminals.waitForExit(params))
    .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
      terminals.kill(params);
      return {};
    })
    .onRequest(acp.methods.client.terminal.release, ({ params }) => {
      terminals.release(params);
      return {};
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      const locations = params.toolCall.locations ?? [];
      const inside = await Promise.all(
        locations.map((location) => insideWorktree(context.cwd, location.path)),
      );
      const answer = answerPermission({
        toolCall: params.toolCall,
        options: params.options,
        shell: context.shell,
        readOnly,
        locationsInside: inside.every(Boolean),
      });
      if (!answer.allowed) refused(params.toolCall.title ?? "a tool call", answer.reason);
      return { outcome: answer.outcome };
    });
}
