/** The exchange reads the repository, the bot and the run side by side, and still judges them in order. */
import { describe, expect, it } from "vitest";
import { LOCUS_RUN_CLAIMS } from "./actions-claims.ts";
import { DEFAULT_REUSABLE_WORKFLOWS } from "../../../lib/token-exchange/claim-rules.ts";
import {
  createExchangeBudget,
  DEFAULT_EXCHANGE_LIMITS,
} from "../../../lib/token-exchange/exchange-budget.ts";
import { exchangeToken, type ExchangeGitHub } from "../../../lib/token-exchange/exchange.ts";
import { createMintLedger } from "../../../lib/token-exchange/mint-ledger.ts";
import { Refusal } from "../../../lib/token-exchange/refusal.ts";
import { runName } from "../../../lib/dispatch/dispatch-inputs.ts";

const claims = LOCUS_RUN_CLAIMS;

/** A GitHub whose every read waits until the test lets it answer; `started` lists the reads asked for. */
function gatedGitHub(repositoryId: string, runFound = true) {
  const started: string[] = [];
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const read = async <T>(name: string, value: T): Promise<T> => {
    started.push(name);
    if (name !== "installationOf") await gate;
    return value;
  };
  const github: ExchangeGitHub = {
    installationOf: () => read("installationOf", 9),
    repository: () => read("repository", { id: repositoryId, defaultBranch: "main", workflow: "locus.yml" }),
    bot: () => read("bot", { login: "locus[bot]", id: 1 }),
    run: (_installation, _owner, _repo, runId) =>
      read(
        "run",
        runFound
          ? {
              id: runId,
              path: ".github/workflows/locus.yml",
              status: "in_progress",
              displayTitle: runName("issue", 1, "d-1"),
              actor: "locus[bot]",
              triggeringActor: "locus[bot]",
            }
          : null,
      ),
    deliveryRecord: () => read("deliveryRecord", { author: null, deliveries: [] }),
    mint: () => read("mint", { token: "ghs_minted", expiresAt: "2030-01-01T00:00:00Z", permissions: {} }),
  };
  return { github, started, open: () => open() };
}

function exchange(github: ExchangeGitHub) {
  const now = () => Date.parse("2026-11-29T12:00:00Z");
  return exchangeToken(
    {
      verifier: { verify: () => Promise.resolve(claims) },
      github,
      limiter: createExchangeBudget(DEFAULT_EXCHANGE_LIMITS, now),
      ledger: createMintLedger({ now }),
      reusableWorkflows: DEFAULT_REUSABLE_WORKFLOWS,
    },
    "oidc-token",
    { phase: "agent" },
  );
}

/** Lets every pending promise callback run: the reads the exchange can ask for without an answer. */
const drained = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("exchangeToken's reads", () => {
  it("asks for the repository, the bot and the run before any of them answers, then mints", async () => {
    const world = gatedGitHub("42");
    const minted = exchange(world.github);
    await drained();
    expect(world.started).toEqual(["installationOf", "repository", "bot", "run"]);
    world.open();
    await expect(minted).resolves.toMatchObject({ token: "ghs_minted", bot: { login: "locus[bot]" } });
    expect(world.started.at(-1)).toBe("mint");
  });

  it("still judges the repository before the run, and mints nothing when either is refused", async () => {
    const refusalOf = async (world: ReturnType<typeof gatedGitHub>) => {
      const minted = exchange(world.github);
      world.open();
      const refusal = await minted.catch((error: unknown) => error);
      expect(world.started).not.toContain("mint");
      return refusal instanceof Refusal ? refusal.code : refusal;
    };
    // Both wrong: the repository's rule is named, as when the run was read only after it passed.
    expect(await refusalOf(gatedGitHub("43", false))).toBe("wrong-repository");
    expect(await refusalOf(gatedGitHub("42", false))).toBe("unknown-run");
  });
});
