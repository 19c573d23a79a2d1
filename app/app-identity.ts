/**
 * Who this app is on GitHub: its bot user, `<slug>[bot]`, with the slug read
 * from `GET /app` (the operator chose it when registering the app) and the
 * bot user's id from `GET /users/{login}`, read with an installation's client
 * (an app's JWT may call only the app's own endpoints). Both are asked once
 * per process and kept; a failed look-up is asked again next time, never
 * replaced by a guess.
 */
import type { Probot } from "probot";
import { botLoginOf, selfLoginsOf, type LocusIdentity } from "../lib/github/locus-identity.ts";

export interface AppIdentity {
  /** The bot's login. */
  login(): Promise<string>;
  /** The logins whose events are Locus's own: the bot and `github-actions[bot]`. */
  selfLogins(): Promise<readonly string[]>;
  /** The bot's login and user id, the id read through this installation. */
  identity(installation: number): Promise<LocusIdentity>;
}

function retriedOnFailure<T>(read: () => Promise<T>): () => Promise<T> {
  let held: Promise<T> | undefined;
  return () => {
    const current = (held ??= read());
    current.catch(() => {
      if (held === current) held = undefined;
    });
    return current;
  };
}

const identities = new WeakMap<Probot, AppIdentity>();

/** One identity per Probot instance: the webhook handlers and the token exchange share its look-ups. */
export function appIdentityOf(probot: Probot): AppIdentity {
  const known = identities.get(probot);
  if (known) return known;
  const login = retriedOnFailure(async () => {
    const { data } = await (await probot.auth()).request("GET /app");
    if (!data?.slug) throw new Error("GET /app answered without the app's slug");
    return botLoginOf(data.slug);
  });
  // The id is the same through any installation: the first one to ask reads it.
  let userId: (() => Promise<number>) | undefined;
  const identity: AppIdentity = {
    login,
    selfLogins: async () => selfLoginsOf({ login: await login() }),
    async identity(installation) {
      const bot = await login();
      const id = (userId ??= retriedOnFailure(async () => {
        const octokit = await probot.auth(installation);
        return Number((await octokit.request("GET /users/{username}", { username: bot })).data.id);
      }));
      return { login: bot, id: await id() };
    },
  };
  identities.set(probot, identity);
  return identity;
}
