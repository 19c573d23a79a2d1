/**
 * Who may make Locus work. The app is the security boundary: a dispatched run
 * holds the repository's secrets whoever asked, so only people who could push
 * anyway (write, maintain, admin) may trigger work, and bots only when listed.
 */
import { isLocus } from "../github/locus-identity.ts";

export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

const TRIGGERING: readonly Permission[] = ["admin", "maintain", "write"];

export function mayTriggerWork(permission: Permission): boolean {
  return TRIGGERING.includes(permission);
}

export interface Actor {
  readonly login: string;
  readonly type: string;
}

export type ActorVerdict =
  | { kind: "person" }
  | { kind: "allowed-bot" }
  | { kind: "self"; reason: string }
  | { kind: "ignored-bot"; reason: string };

/**
 * Locus's own events never trigger Locus (its label changes would loop), and
 * other bots are ignored unless config lists them. Permission is checked after
 * this, for people and allowed bots alike.
 */
export function classifyActor(
  actor: Actor,
  selfLogins: readonly string[],
  allowedBots: readonly string[],
): ActorVerdict {
  const login = actor.login.toLowerCase();
  if (isLocus(selfLogins, actor.login)) {
    return { kind: "self", reason: `event caused by Locus itself (${actor.login})` };
  }
  if (actor.type !== "Bot" && !login.endsWith("[bot]")) return { kind: "person" };
  if (allowedBots.some((bot) => bot.toLowerCase() === login)) return { kind: "allowed-bot" };
  return { kind: "ignored-bot", reason: `bot ${actor.login} is not in config bots.allowed` };
}

export function refusalMessage(login: string, permission: Permission): string {
  return (
    `@${login} Locus only takes work from people with write access to this repository ` +
    `(your permission is \`${permission}\`). Ask a maintainer to run the command.`
  );
}
