// Per-route fault injection: a rule matches a method and a path pattern and fires a limited number of times.

// `afterApply`: the simulated GitHub carries the request out (stores the comment, opens the PR,
// queues the run, sends its webhooks) and only then answers with the status or drops the
// connection, as GitHub does when it fails between doing the work and answering.
export type FaultAction =
  | { kind: "status"; status: number; afterApply?: boolean }
  | { kind: "secondary-rate-limit"; retryAfter: number }
  | { kind: "latency"; ms: number }
  | { kind: "drop"; afterApply?: boolean }
  // Holds the request: `onHang` is told, and the request waits until `release` settles, then is
  // served as usual (a test orders two clients' requests), or without `release` until the client
  // goes away (a test kills the client at this exact point).
  | { kind: "hang"; onHang?: () => void; release?: Promise<unknown> };

export type FaultRule = FaultAction & {
  method?: string;
  // "/repos/{owner}/{repo}/issues", "/repos/*/*/issues/**", or a RegExp tested against the path (no query, no /api/v3).
  path: string | RegExp;
  // GraphQL requests can be targeted by operation name.
  operationName?: string;
  // Unlimited when omitted.
  times?: number;
};

export interface ActiveFault {
  readonly rule: FaultRule;
  readonly fired: number;
  readonly remaining: number;
}

interface FaultEntry {
  rule: FaultRule;
  pattern: RegExp;
  fired: number;
}

export interface FaultRegistry {
  add: (rule: FaultRule) => ActiveFault;
  clear: () => void;
  take: (method: string, path: string, operationName: string | null) => FaultAction[];
}

function toPattern(path: string | RegExp): RegExp {
  if (path instanceof RegExp) return path;
  const source = path
    .split(/(\*\*|\*|\{\w+\})/)
    .map((part) => {
      if (part === "**") return ".*";
      if (part === "*" || /^\{\w+\}$/.test(part)) return "[^/]+";
      return part.replace(/[.+?^$()|[\]\\]/g, "\\$&");
    })
    .join("");
  return new RegExp(`^${source}$`);
}

export function createFaultRegistry(): FaultRegistry {
  const entries: FaultEntry[] = [];
  function add(rule: FaultRule): ActiveFault {
    const entry: FaultEntry = { rule, pattern: toPattern(rule.path), fired: 0 };
    entries.push(entry);
    return {
      rule,
      get fired() {
        return entry.fired;
      },
      get remaining() {
        return rule.times === undefined ? Infinity : Math.max(0, rule.times - entry.fired);
      },
    };
  }
  // Latency rules all apply; of the other rules the first live one wins.
  function take(method: string, path: string, operationName: string | null): FaultAction[] {
    const actions: FaultAction[] = [];
    let terminal = false;
    for (const entry of entries) {
      const { rule } = entry;
      if (rule.times !== undefined && entry.fired >= rule.times) continue;
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (rule.operationName && rule.operationName !== operationName) continue;
      if (!entry.pattern.test(path)) continue;
      if (rule.kind !== "latency") {
        if (terminal) continue;
        terminal = true;
      }
      entry.fired += 1;
      actions.push(rule);
    }
    return actions;
  }
  return { add, clear: () => entries.splice(0), take };
}
