/**
 * The `acp` provider: any agent that speaks the Agent Client Protocol (config
 * `agent.acp.command`), with Locus as its client on `@agentclientprotocol/sdk` over stdio. The
 * agent runs inside the run's sandbox like the CLI providers (its program never taken from the
 * worktree), with only its own credentials. Locus offers the agent its file system and terminals
 * and serves both through its own boundary (the worktree's confinement, the shell policy, the
 * scrubbed environment), answers its permission
 * requests from the same policy, and turns its session updates into Locus's events. A time, turn
 * or cost limit, an abort, or a protocol violation sends `session/cancel`, waits a short grace for
 * the turn to end, then stops the process group; the caller saves the work as for any provider.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { AgentEvent } from "../events.ts";
import { costLimitMessage, maxTurnsMessage, timeLimitMessage } from "../limit-messages.ts";
import type {
  AgentRunner,
  ExecuteOptions,
  RunResult,
  RunnerOptions,
  StopReason,
  ToolCallRecord,
} from "../runner.ts";
import type { ToolContext } from "../tool.ts";
import { NO_USAGE } from "../usage.ts";
import { acpCommandLine } from "./acp-command.ts";
import type { McpServerSettings } from "../mcp/mcp-server-settings.ts";
import { acpOutcome } from "./acp-outcome.ts";
import { acpProgram, confinedAgent } from "./acp-program.ts";
import { acpPrompt } from "./acp-prompt.ts";
import { createAcpCostMeter } from "./acp-cost.ts";
import { acpMcpServers, trustedAcpMcpServers } from "./acp-mcp-servers.ts";
import { createAcpChannel } from "./acp-channel.ts";
import { startAcpProcess } from "./acp-process.ts";
import { createAcpClient } from "./acp-client.ts";
import { createAcpTerminals } from "./acp-terminals.ts";
import { acpUpdates } from "./acp-updates.ts";
import { withCredentials } from "./cli-environment.ts";
import { structuredAnswerOf } from "./structured-answer.ts";
import type { RunTally } from "./cli-spec.ts";
import { takeAnswer } from "./take-answer.ts";

export interface AcpRunnerOptions extends RunnerOptions {
  readonly now?: () => number;
  /** How long a cancelled agent gets to end its turn before its process group is stopped. */
  readonly cancelGraceMs?: number;
}

const DEFAULT_CANCEL_GRACE_MS = 3_000;
const LOCUS_VERSION = "1";

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createAcpRunner(options: AcpRunnerOptions): AgentRunner {
  const now = options.now ?? Date.now;
  const settings = options.acp ?? { env: [] };
  const line = acpCommandLine(settings.command);
  const env = withCredentials(options.env, settings.env);
  const { locate, lookup, unavailable } = acpProgram(line, options.env);

  const confined = (
    executable: string,
    args: readonly string[],
    cwd: string,
    servers: readonly McpServerSettings[],
  ) =>
    confinedAgent({ sandbox: options.sandbox, env, keep: settings.env }, { executable, args, cwd, servers });

  async function execute(execute: ExecuteOptions): Promise<RunResult> {
    const found = await locate(execute.cwd);
    if (line === undefined || found?.found !== true) throw unavailable(found);
    const started = now();
    const emit = (event: AgentEvent) => execute.onEvent?.(event);
    const readOnly = execute.readOnly ?? false;
    const answer = structuredAnswerOf(execute.tools);
    const kill = new AbortController();
    const toolCalls: ToolCallRecord[] = [];
    const files = new Set<string>();
    const meter = createAcpCostMeter({
      ...(settings.costPerToolCallUsd === undefined
        ? {}
        : { costPerToolCallUsd: settings.costPerToolCallUsd }),
      ...(execute.maxCostUsd === undefined ? {} : { maxCostUsd: execute.maxCostUsd }),
    });
    let stopped: { reason: StopReason; message: string } | undefined;
    let cancel: (() => void) | undefined;
    let grace: NodeJS.Timeout | undefined;

    function stop(reason: StopReason, message: string): void {
      if (stopped !== undefined) return;
      stopped = { reason, message };
      cancel?.();
      grace = setTimeout(() => kill.abort(), cancel ? (options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS) : 0);
      grace.unref();
    }

    const tally: RunTally = {
      emit,
      turn() {
        spent(meter.reported(updates.reportedCostUsd() ?? 0));
      },
      tool(call) {
        toolCalls.push(call);
        if (updates.toolCalls() > execute.maxTurns) stop("max_turns", maxTurnsMessage(execute.maxTurns));
      },
      fileChanged: (path) => files.add(path),
      stop,
    };
    function spent(costUsd: number): void {
      emit({ type: "turn", turn: updates.toolCalls(), usage: NO_USAGE, costUsd });
      if (execute.maxCostUsd !== undefined && meter.total() >= execute.maxCostUsd)
        stop("cost_limit", costLimitMessage(meter.total(), execute.maxCostUsd));
    }
    const updates = acpUpdates(tally, {
      cwd: execute.cwd,
      now,
      onToolCallStarted(calls) {
        const counted = meter.toolCallStarted(calls);
        if ("stop" in counted) stop("cost_unreported", counted.stop);
        else if (counted.addUsd > 0) spent(counted.addUsd);
      },
    });
    function refused(what: string, reason: string): void {
      const id = `refused-${toolCalls.length}-${now()}`;
      const summary = `Refused ${what}: ${reason}`;
      emit({ type: "tool_started", id, tool: "refused", params: { target: what } });
      toolCalls.push({ name: "refused", target: what, ok: false, summary });
      emit({ type: "tool_completed", id, tool: "refused", duration: 0, ok: false, summary });
    }

    const toolContext: ToolContext = {
      cwd: execute.cwd,
      signal: kill.signal,
      shell: options.shell,
      hooks: options.hooks ?? [],
      env: withCredentials(options.env, []),
      onQuestion: () => undefined,
      // The agent's terminals run in the run's sandbox, like the built-in agent's shell.
      ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    };
    const terminals = createAcpTerminals(toolContext, {
      readOnly,
      onRefused: (command, reason) => refused(`\`${command}\``, reason),
    });
    const client = createAcpClient({
      context: toolContext,
      readOnly,
      terminals,
      refused,
      written: (path) => files.add(path),
    });

    const onAbort = () => stop("aborted", "aborted");
    execute.signal?.addEventListener("abort", onAbort, { once: true });
    const timer =
      execute.timeLimitMs === undefined
        ? undefined
        : setTimeout(
            () => stop("time_limit", timeLimitMessage(execute.timeLimitMs ?? 0)),
            execute.timeLimitMs,
          ).unref();

    emit({ type: "start", runner: "acp", model: execute.model, timestamp: new Date(started).toISOString() });
    if (options.sandbox?.kind === "off")
      emit({
        type: "warning",
        message:
          "sandbox.mode is off: the ACP agent and the MCP servers it starts run unsandboxed, with the runner's files and network",
      });
    const servers = await trustedAcpMcpServers(options.mcpServers ?? [], lookup(execute.cwd), execute.cwd);
    for (const refused of servers.refused)
      emit({ type: "warning", message: `MCP server ${refused.name} was not offered: ${refused.reason}` });
    const command = await confined(found.path, line.args, execute.cwd, servers.servers);
    const channel = createAcpChannel();
    const exited = startAcpProcess(command, channel, kill.signal, stop).finally(() => terminals.closeAll());
    if (execute.signal?.aborted) onAbort();

    let response: acp.PromptResponse | undefined;
    let failure: string | undefined;
    try {
      response = await client.connectWith(channel.stream, async (agent) => {
        const initialized = await agent.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
          clientInfo: { name: "locus", version: LOCUS_VERSION },
        });
        if (initialized.protocolVersion !== acp.PROTOCOL_VERSION)
          throw new Error(
            `the agent speaks ACP version ${initialized.protocolVersion}, Locus speaks ${acp.PROTOCOL_VERSION}`,
          );
        const mcp = acpMcpServers(
          servers.servers,
          options.env,
          initialized.agentCapabilities?.mcpCapabilities,
        );
        for (const name of mcp.skipped) {
          emit({
            type: "warning",
            message: `MCP server ${name} was not offered: the agent cannot reach an HTTP MCP server`,
          });
        }
        // The SDK's session helper keeps updates and the turn's end in arrival order.
        return agent
          .buildSession({ cwd: execute.cwd, mcpServers: mcp.offered })
          .withSession(async (session) => {
            if (stopped !== undefined) throw new Error(stopped.message);
            cancel = () =>
              void agent
                .notify(acp.methods.agent.session.cancel, { sessionId: session.sessionId })
                .catch(() => undefined);
            const takesImages = initialized.agentCapabilities?.promptCapabilities?.image === true;
            const prompted = session.prompt(acpPrompt(execute, answer, takesImages));
            const failed = prompted.then(() => new Promise<never>(() => undefined));
            for (;;) {
              const message = await Promise.race([session.nextUpdate(), failed]);
              if (message.kind === "stop") return message.response;
              updates.onUpdate(message.update);
            }
          });
      });
    } catch (error) {
      failure = messageOf(error);
    } finally {
      clearTimeout(timer);
      execute.signal?.removeEventListener("abort", onAbort);
      kill.abort();
    }
    const outcome = await exited;
    clearTimeout(grace);

    const ended = acpOutcome({
      stopped,
      response,
      outcome,
      failure,
      maxTurns: execute.maxTurns,
      summary: () => updates.summary(),
    });
    let { success, stop: stop_, error, summary } = ended;
    if (success && answer) {
      const taken = await takeAnswer(
        answer,
        { success, stop: stop_, summary },
        tally,
        execute.cwd,
        kill.signal,
        now,
      );
      success = taken.success;
      stop_ = taken.stop;
      summary = taken.summary;
      error = taken.error;
    }
    const unreported = meter.warning();
    if (unreported !== undefined && stop_ !== "cost_unreported")
      emit({ type: "warning", message: unreported });
    const cost = meter.total();
    if (error !== undefined) emit({ type: "error", message: error, retryable: false });
    emit({
      type: "done",
      success,
      stats: {
        duration: now() - started,
        turns: updates.toolCalls(),
        tools: toolCalls.length,
        tokens: 0,
        costUsd: cost,
      },
    });
    return {
      success,
      summary,
      ...(error === undefined ? {} : { error }),
      stop: stop_,
      turns: updates.toolCalls(),
      usage: NO_USAGE,
      costUsd: cost,
      toolCalls,
      filesChanged: [...files],
      questions: [],
    };
  }

  return {
    name: "acp",
    isAvailable: async () => (await locate())?.found === true,
    version: () =>
      line === undefined
        ? Promise.reject(unavailable())
        : Promise.resolve(`acp (${[line.executable, ...line.args].join(" ")})`),
    execute,
  };
}
