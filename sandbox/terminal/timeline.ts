/**
 * The live timeline: the world's events (webhooks, API exchanges, workflow
 * runs and their Action's log) as one readable line each. Locus's own
 * webhooks are mostly left out (the app ignores them too); what it did shows
 * as dispatches, status changes, pushes, PRs and comments.
 */
import { execFileSync } from "node:child_process";
import { readBranchTipsSync } from "../github-sim/git-cache.ts";
import type { Exchange, GitHubSimulator, WebhookDelivery } from "../github-sim/index.ts";
import type { WorldEvent } from "../world/start-world.ts";
import type { Progress } from "./progress.ts";

export interface TimelineOptions {
  readonly sim: GitHubSimulator;
  readonly gitDir: string;
  readonly progress: Progress;
  readonly color: boolean;
  readonly now?: () => number;
}

export interface Timeline {
  handle(event: WorldEvent): void;
  /** A scenario step's heading. */
  step(title: string): void;
  note(text: string): void;
  readonly counts: Readonly<Record<"webhooks" | "ownWebhooks" | "dispatches" | "runs" | "pushes", number>>;
}

interface Payload {
  action?: string;
  sender?: { login?: string };
  issue?: { number?: number; title?: string; labels?: { name?: string }[]; pull_request?: unknown };
  pull_request?: {
    number?: number;
    title?: string;
    head?: { ref?: string };
    base?: { ref?: string };
    merged?: boolean;
  };
  label?: { name?: string };
  comment?: { body?: string; path?: string; line?: number };
  milestone?: { title?: string; description?: string | null };
  workflow_run?: { id?: number; display_title?: string; conclusion?: string | null };
  installation?: { account?: { login?: string } };
}

const STYLES = { dim: 2, bold: 1, red: 31, green: 32, yellow: 33, blue: 34, magenta: 35, cyan: 36 } as const;

export function createTimeline(options: TimelineOptions): Timeline {
  const { sim, progress } = options;
  const now = options.now ?? Date.now;
  const started = now();
  const statusOf = new Map<number, string>();
  const counts = { webhooks: 0, ownWebhooks: 0, dispatches: 0, runs: 0, pushes: 0 };
  const subjects = new Map<string, string>();
  let refs = readRefs(options.gitDir, subjects);

  const paint = (style: keyof typeof STYLES, text: string) =>
    options.color ? `\x1b[${STYLES[style]}m${text}\x1b[0m` : text;

  function line(icon: string, text: string): void {
    const at = `+${((now() - started) / 1000).toFixed(1)}s`.padStart(7);
    progress.print(`${paint("dim", at)}  ${icon} ${text}`);
  }

  function loginOf(exchange: Exchange): string | undefined {
    const header = exchange.requestHeaders.authorization;
    const token = typeof header === "string" ? header.replace(/^(token|bearer)\s+/i, "") : "";
    return sim.store.tokens.get(token)?.login;
  }

  function statusChange(issue: number, labels: readonly string[]): void {
    const status = labels.find((name) => name.startsWith("locus:")) ?? "(none)";
    const before = statusOf.get(issue);
    statusOf.set(issue, status);
    if (before === undefined || before === status) return;
    line(paint("magenta", "◆"), `#${issue} ${paint("dim", before)} → ${paint("bold", status)}`);
  }

  function checkPushes(): void {
    const next = readRefs(options.gitDir, subjects);
    for (const [branch, head] of next) {
      const previous = refs.get(branch);
      if (previous?.sha === head.sha) continue;
      counts.pushes += 1;
      const verb = previous ? "push" : "push (new branch)";
      line(
        paint("blue", "⬆"),
        `${verb} ${paint("bold", branch)} ${head.sha} ${paint("dim", `"${head.subject}"`)}`,
      );
    }
    for (const branch of refs.keys()) {
      if (!next.has(branch)) line(paint("blue", "✂"), `deleted branch ${branch}`);
    }
    refs = next;
  }

  function onWebhook(delivery: WebhookDelivery): void {
    counts.webhooks += 1;
    const p = delivery.payload as Payload;
    const name = `${delivery.event}${delivery.action ? `.${delivery.action}` : ""}`;
    const sender = p.sender?.login ?? "?";
    const number = p.issue?.number ?? p.pull_request?.number;
    if (p.issue?.labels && number !== undefined) {
      const labels = p.issue.labels.flatMap((label) => (label.name ? [label.name] : []));
      if (p.issue.pull_request === undefined) statusChange(number, labels);
    }
    if (sender === sim.app.botLogin) {
      counts.ownWebhooks += 1;
      onOwnWebhook(name, p);
      return;
    }
    const failed =
      delivery.status !== 200 && delivery.status !== 202
        ? paint("red", ` → ${delivery.status ?? delivery.error}`)
        : "";
    line(
      paint("yellow", "⇢"),
      `webhook ${paint("bold", name)} ${humanDetail(name, p)} by ${sender}${failed}`,
    );
  }

  function onOwnWebhook(name: string, p: Payload): void {
    // A push comes just before the PR or comment that reports it; show it first.
    if (/^(pull_request\.opened|issue_comment\.|pull_request_review_comment\.)/.test(name)) checkPushes();
    switch (name) {
      case "pull_request.opened":
        line(
          paint("green", "⬢"),
          `PR #${p.pull_request?.number} opened: ${paint("bold", p.pull_request?.title ?? "")} (${p.pull_request?.head?.ref} → ${p.pull_request?.base?.ref})`,
        );
        return;
      case "issue_comment.created":
        line(
          paint("cyan", "✉"),
          `Locus commented on #${p.issue?.number}: ${firstLine(p.comment?.body ?? "")}`,
        );
        return;
      case "pull_request_review_comment.created":
        line(
          paint("cyan", "✉"),
          `Locus replied on PR #${p.pull_request?.number}: ${firstLine(p.comment?.body ?? "")}`,
        );
        return;
      case "workflow_run.completed":
        line(
          paint("yellow", "⇢"),
          `webhook ${paint("bold", name)} "${p.workflow_run?.display_title}" (${p.workflow_run?.conclusion})`,
        );
        return;
      default:
        return;
    }
  }

  function onExchange(exchange: Exchange): void {
    if (exchange.injected) {
      line(
        paint("red", "↯"),
        `GitHub fault: ${exchange.method} ${exchange.path} answered ${exchange.status}`,
      );
      return;
    }
    if (exchange.method === "GET" || exchange.status >= 400) return;
    const login = loginOf(exchange);
    if (login !== sim.app.botLogin) return;
    checkPushes();
    if (exchange.template === "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches") {
      counts.dispatches += 1;
      const body = exchange.requestBody as { inputs?: Record<string, string> } | undefined;
      const inputs = body?.inputs ?? {};
      const target = inputs["milestone"]
        ? `milestone ${inputs["milestone"]}`
        : inputs["pr"]
          ? `PR #${inputs["pr"]}`
          : inputs["issue"]
            ? `#${inputs["issue"]}`
            : "";
      line(
        paint("magenta", "⚙"),
        `dispatch ${exchange.path.split("/")[6] ?? ""}: mode ${paint("bold", inputs["mode"] ?? "?")} ${target} ${paint("dim", `(delivery ${(inputs["delivery"] ?? "").slice(0, 18)})`)}`,
      );
      return;
    }
    if (exchange.template === "/repos/{owner}/{repo}/pulls/{pull_number}" && exchange.method === "PATCH") {
      line(paint("green", "⬢"), `PR #${exchange.path.split("/").at(-1)} updated`);
    }
  }

  function onRunLine(runId: number, raw: string): void {
    if (raw.startsWith("::add-mask::") || raw.startsWith("::debug::") || raw === "::endgroup::") return;
    if (raw.startsWith("::group::")) {
      const title = raw.slice("::group::".length);
      if (title.startsWith("Agent: ")) line(" ", `  ${paint("bold", "agent")} working on ${title.slice(7)}`);
      return;
    }
    if (raw.startsWith("::warning"))
      return line(paint("yellow", "⚠"), `  ${raw.replace(/^::warning[^:]*::/, "")}`);
    if (raw.startsWith("::error")) return line(paint("red", "✗"), `  ${raw.replace(/^::error[^:]*::/, "")}`);
    if (raw.startsWith("✓ ") || raw.startsWith("✗ ")) {
      const ok = raw.startsWith("✓");
      return line(
        " ",
        `    ${paint(ok ? "green" : "red", ok ? "✓" : "✗")} ${paint("dim", `[run ${runId}]`)} ${raw.slice(2)}`,
      );
    }
    if (raw.startsWith("agent: "))
      return line(" ", `    ${paint("dim", `“${truncate(raw.slice(7), 110)}”`)}`);
    // The app's side of each token exchange is its own line.
    if (raw.startsWith("done: ") || raw.trim() === "" || /^Locus: \w+ token received/.test(raw)) return;
    line(" ", `  ${paint("dim", truncate(raw, 140))}`);
  }

  return {
    counts,
    step(title) {
      progress.print("");
      progress.print(paint("bold", `━━ ${title}`));
    },
    note(text) {
      progress.print(`         ${paint("dim", text)}`);
    },
    handle(event) {
      switch (event.type) {
        case "webhook":
          return onWebhook(event.delivery);
        case "exchange":
          return onExchange(event.exchange);
        case "run-start":
          counts.runs += 1;
          return line(
            paint("cyan", "▶"),
            `run ${event.run.runId} started: ${paint("bold", event.run.displayTitle)} ${paint("dim", "(fresh clone, bundled Action)")}`,
          );
        case "run-line":
          return onRunLine(event.run.runId, event.line);
        case "run-end": {
          checkPushes();
          const { outputs, conclusion, signal } = event.finished;
          const parts = [
            outputs["status"] ?? (signal ? `killed by ${signal}` : "no outputs"),
            outputs["pr-number"] ? `PR #${outputs["pr-number"]}` : "",
            outputs["input-tokens"]
              ? `${outputs["input-tokens"]} tokens in / ${outputs["output-tokens"] ?? "0"} out`
              : "",
            outputs["cost-usd"] ? `$${outputs["cost-usd"]}` : "",
          ].filter(Boolean);
          const colour = conclusion === "success" ? "green" : "red";
          return line(
            paint(colour, "■"),
            `run ${event.run.runId} ${paint(colour, conclusion)} · ${parts.join(" · ")}`,
          );
        }
        case "token-exchange": {
          const { event: x } = event;
          if (x.outcome === "refused") {
            return line(paint("red", "⚿"), `token exchange refused (${x.status ?? "?"}): ${x.reason ?? ""}`);
          }
          const permissions = Object.entries(x.permissions ?? {})
            .map(([name, level]) => `${name}:${level}`)
            .join(" ");
          return line(
            paint("blue", "⚿"),
            `token exchange: run ${x.runId ?? "?"} traded its OIDC token for its ${paint("bold", x.phase ?? "?")}-phase token ${paint("dim", `(${permissions})`)}`,
          );
        }
        case "app-log":
          return line(paint(event.level === "error" ? "red" : "yellow", "⚠"), `app: ${event.message}`);
      }
    },
  };
}

function humanDetail(name: string, p: Payload): string {
  const issue = p.issue?.number ?? p.pull_request?.number;
  switch (name) {
    case "installation.created":
      return `(app installed on ${p.installation?.account?.login ?? "?"})`;
    case "issues.opened":
      return `#${issue} "${p.issue?.title ?? ""}"`;
    case "issues.labeled":
    case "issues.unlabeled":
      return `#${issue} ${p.label?.name ?? ""}`;
    case "issue_comment.created":
      return `#${issue} "${firstLine(p.comment?.body ?? "")}"`;
    case "milestone.created":
    case "milestone.edited":
      return `"${p.milestone?.title ?? ""}"${p.milestone?.description ? ` (${firstLine(p.milestone.description)})` : ""}`;
    case "pull_request_review_comment.created":
      return `PR #${issue} ${p.comment?.path}:${p.comment?.line} "${firstLine(p.comment?.body ?? "")}"`;
    case "pull_request.closed":
      return `PR #${issue}${p.pull_request?.merged ? " (merged)" : ""}`;
    default:
      return issue === undefined ? "" : `#${issue}`;
  }
}

/** The first line a reader sees: hidden markers and markdown quoting removed. */
export function firstLine(body: string): string {
  const visible = body
    .replace(/<!--[\s\S]*?-->/g, "")
    .split("\n")
    .map((text) => text.replace(/^[>#\s]+/, "").trim())
    .find((text) => text !== "");
  return truncate(visible ?? "", 100);
}

function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * Every branch with its tip and subject. The tips are file reads (this runs on every request the
 * app makes); git is asked only for the subject of a tip not seen before, about once per push.
 */
function readRefs(
  gitDir: string,
  subjects: Map<string, string>,
): Map<string, { sha: string; subject: string }> {
  const refs = new Map<string, { sha: string; subject: string }>();
  for (const [ref, sha] of readBranchTipsSync(gitDir)) {
    let subject = subjects.get(sha);
    if (subject === undefined) {
      subject = execFileSync("git", ["--git-dir", gitDir, "log", "-1", "--format=%s", sha], {
        encoding: "utf8",
      }).trim();
      subjects.set(sha, subject);
    }
    refs.set(ref.slice("refs/heads/".length), { sha: sha.slice(0, 7), subject });
  }
  return refs;
}
