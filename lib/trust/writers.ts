/**
 * Who has write access, as the Action asks GitHub: one permission lookup per
 * login for the whole run, however many prompts and threads name it. Locus
 * itself (and its own review) and the bots config lists count as writers without a lookup; other
 * bots never do; the requester was checked before the run started, and so
 * was the person the app dispatched the run for (`checkedByApp`).
 */
import { mayTriggerWork } from "./actor-policy.ts";
import type { CommentTrust } from "./comment-trust.ts";
import type { LocusConfig } from "../config/index.ts";
import type { GitHubGateway } from "../github/index.ts";
import type { LocusIdentity } from "../github/locus-identity.ts";
import { LOCUS_REVIEWER, selfLogins } from "./self-logins.ts";
import { isLocus } from "../github/locus-identity.ts";

export interface Writers {
  /** Looks the logins up (each once per run) and answers the trust the prompt applies to them. */
  trustFor(logins: Iterable<string>): Promise<CommentTrust>;
  /**
   * A login the app checked for write access before it dispatched this run
   * (lib/trust/app-checked-requester.ts): a writer without a lookup, unless this run already
   * looked it up.
   */
  checkedByApp(login: string): void;
}

/** What deciding who may steer a run needs: who asked, who Locus is, and a permission read. */
export interface WritersPorts {
  readonly gateway: Pick<GitHubGateway, "getCollaboratorPermission">;
  readonly config: Pick<LocusConfig, "bots" | "prompt">;
  readonly identity: LocusIdentity;
  readonly run: { readonly actor: string };
}

export function createWriters(ctx: WritersPorts): Writers {
  const self = [...selfLogins(ctx), LOCUS_REVIEWER];
  const lookups = new Map<string, Promise<boolean>>();
  const requester = ctx.run.actor.endsWith("[bot]") ? "" : ctx.run.actor.toLowerCase();

  function lookUp(login: string): Promise<boolean> {
    const key = login.toLowerCase();
    const known = lookups.get(key);
    if (known) return known;
    let answer: Promise<boolean>;
    if (isLocus(self, login) || isLocus(ctx.config.bots.allowed, login) || key === requester) {
      answer = Promise.resolve(true);
    } else if (key.endsWith("[bot]") || key === "ghost") {
      answer = Promise.resolve(false);
    } else {
      answer = ctx.gateway.getCollaboratorPermission(login).then(mayTriggerWork);
    }
    lookups.set(key, answer);
    return answer;
  }

  return {
    checkedByApp(login) {
      const key = login.toLowerCase();
      if (!lookups.has(key)) lookups.set(key, Promise.resolve(true));
    },
    async trustFor(logins) {
      const distinct = [...new Set([...logins].map((login) => login.toLowerCase()))];
      const answers = await Promise.all(distinct.map(async (login) => [login, await lookUp(login)] as const));
      const writers = new Set(answers.filter(([, writer]) => writer).map(([login]) => login));
      return {
        isWriter: (login) => writers.has(login.toLowerCase()),
        includeOutsiders: ctx.config.prompt.includeOutsiders,
      };
    },
  };
}
