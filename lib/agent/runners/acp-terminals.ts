/**
 * The ACP agent's `terminal/*` requests, run like the built-in `run_shell`: the shell policy
 * decides first, then the same process helper runs the command in the worktree with a scrubbed
 * environment, its own process group and the policy's timeout. A command's output is known once
 * it has ended (the helper collects head and tail); `terminal/output` before that reports none.
 * The configured command hooks run around it as around `run_shell`: a failing before-command hook
 * refuses the terminal with the hook's output, an after-command hook's output ends the terminal's.
 */
import { randomUUID } from "node:crypto";
import type * as acp from "@agentclientprotocol/sdk";
import { decideShellCommand } from "../../config/shell-policy.ts";
import type { ToolContext } from "../tool.ts";
import { blockedByHook, runCommandHooks } from "../tools/command-hooks.ts";
import { shellQuote } from "../tools/hook-commands.ts";
import { scrubEnvironment } from "../../sandbox/environment.ts";
import { runProcess, type ProcessOutcome } from "../tools/process.ts";
import { AcpRefusal, terminalDirectory } from "./acp-files.ts";

/**
 * Variables that would run code the shell policy never sees (bash's startup file, a preloaded
 * library, git's own command hooks), dropped from what an agent asks a terminal to have.
 */
const HIDDEN_RUNNERS = /^(?:BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PROMPT_COMMAND|PS4|LD_.*|GIT_.*)$/;

interface Terminal {
  readonly command: string;
  readonly stop: AbortController;
  readonly done: Promise<ProcessOutcome>;
  outcome?: ProcessOutcome;
  readonly outputByteLimit?: number;
}

export interface AcpTerminals {
  create(request: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse>;
  output(request: acp.TerminalOutputRequest): acp.TerminalOutputResponse;
  waitForExit(request: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse>;
  kill(request: acp.KillTerminalRequest): void;
  release(request: acp.ReleaseTerminalRequest): void;
  /** Ends every command still running (the session is over). */
  closeAll(): void;
}

/**
 * The command to run and the text the shell policy judges: `bash -c <script>` is its script;
 * anything else runs as one shell-quoted line and is judged unquoted, so `git` `push` cannot pass
 * a `git push*` pattern as `git 'push'`.
 */
function terminalCommand(request: Pick<acp.CreateTerminalRequest, "command" | "args">): {
  readonly run: string;
  readonly judged: string;
} {
  const args = request.args ?? [];
  if (args.length === 2 && /^(?:ba|z)?sh$/.test(request.command) && /^-l?c$/.test(args[0] ?? ""))
    return { run: args[1] ?? "", judged: args[1] ?? "" };
  return {
    run: [request.command, ...args.map(shellQuote)].join(" "),
    judged: [request.command, ...args].join(" "),
  };
}

function exitStatus(outcome: ProcessOutcome): acp.TerminalExitStatus {
  if (outcome.spawnError !== undefined) return { exitCode: 127, signal: null };
  if (outcome.timedOut || outcome.aborted) return { exitCode: null, signal: "SIGTERM" };
  return { exitCode: outcome.exitCode, signal: null };
}

/** The end of the output within the agent's byte limit, cut on a character boundary. */
function limited(output: string, limit: number | undefined): { output: string; truncated: boolean } {
  if (limit === undefined || Buffer.byteLength(output) <= limit) return { output, truncated: false };
  const bytes = Buffer.from(output);
  let start = bytes.length - limit;
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return { output: bytes.subarray(start).toString("utf8"), truncated: true };
}

export function createAcpTerminals(
  context: ToolContext,
  options: { readonly readOnly: boolean; readonly onRefused: (command: string, reason: string) => void },
): AcpTerminals {
  const terminals = new Map<string, Terminal>();

  function find(id: string): Terminal {
    const terminal = terminals.get(id);
    if (terminal === undefined) throw new AcpRefusal(`There is no terminal ${id}.`);
    return terminal;
  }

  return {
    async create(request) {
      const subject = terminalCommand(request);
      const { run: command, judged } = subject;
      const refuse = (reason: string): never => {
        options.onRefused(judged, reason);
        throw new AcpRefusal(`Refused: ${reason}. The command was not run.`);
      };
      if (options.readOnly) refuse("this run is read-only, so no command may run");
      const decision = decideShellCommand(judged, context.shell);
      if (!decision.allowed) {
        refuse(
          decision.reason === "denied"
            ? `"${decision.matched}" matches the repository's denied shell pattern "${decision.pattern}"`
            : `"${decision.matched}" matches none of the repository's allowed shell patterns`,
        );
      }
      // The worktree is what the sandbox binds; the requested directory is only where it starts.
      let chdir: string | undefined;
      if (request.cwd) {
        const requested = request.cwd;
        chdir = await terminalDirectory(context.cwd, requested).catch(() =>
          refuse(`the directory ${requested} is not a directory inside the worktree`),
        );
      }
      const before = await runCommandHooks("before-command", subject, context);
      if (before.failed) {
        options.onRefused(judged, "a before-command hook refused it");
        throw new AcpRefusal(blockedByHook(before.report));
      }
      const extra = Object.fromEntries(
        (request.env ?? [])
          .filter((variable) => !HIDDEN_RUNNERS.test(variable.name))
          .map((variable) => [variable.name, variable.value]),
      );
      const stop = new AbortController();
      const onAbort = () => stop.abort();
      context.signal.addEventListener("abort", onAbort, { once: true });
      const terminal: Terminal = {
        command,
        stop,
        ...(request.outputByteLimit == null ? {} : { outputByteLimit: request.outputByteLimit }),
        done: runProcess({
          command,
          cwd: context.cwd,
          ...(chdir === undefined ? {} : { chdir }),
          // Whatever the agent asks for, no secret reaches the command.
          env: scrubEnvironment({ ...context.env, ...extra }),
          timeoutMs: context.shell.timeoutSeconds * 1000,
          signal: stop.signal,
          ...(context.sandbox ? { sandbox: context.sandbox } : {}),
        })
          .then(async (ran) => {
            const after =
              ran.spawnError !== undefined || ran.aborted
                ? undefined
                : await runCommandHooks("after-command", subject, context);
            const reports = [before.report, after?.report ?? ""].filter((report) => report !== "");
            return reports.length === 0
              ? ran
              : { ...ran, output: [ran.output.trimEnd(), ...reports].join("\n\n") };
          })
          .then((outcome) => {
            context.signal.removeEventListener("abort", onAbort);
            terminal.outcome = outcome;
            return outcome;
          }),
      };
      const terminalId = `locus-${randomUUID()}`;
      terminals.set(terminalId, terminal);
      return { terminalId };
    },
    output(request) {
      const terminal = find(request.terminalId);
      if (terminal.outcome === undefined) return { output: "", truncated: false };
      return {
        ...limited(terminal.outcome.output, terminal.outputByteLimit),
        exitStatus: exitStatus(terminal.outcome),
      };
    },
    async waitForExit(request) {
      return exitStatus(await find(request.terminalId).done);
    },
    kill(request) {
      find(request.terminalId).stop.abort();
    },
    release(request) {
      find(request.terminalId).stop.abort();
      terminals.delete(request.terminalId);
    },
    closeAll() {
      for (const terminal of terminals.values()) terminal.stop.abort();
      terminals.clear();
    },
  };
}
