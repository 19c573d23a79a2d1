/**
 * Credentials for one git command against `origin`. The token never reaches
 * `.git/config` or the command line (which every user of the machine can read
 * in /proc): it travels in `GIT_CONFIG_*` environment variables of that one
 * child process, as an `http.extraheader` scoped to the remote's URL. A remote
 * that is a local path needs no credentials at all.
 */

export interface PushAuth {
  /** Environment added to the git command that talks to the remote. */
  readonly env: Readonly<Record<string, string>>;
}

export const NO_AUTH: PushAuth = { env: {} };

function isHttpRemote(url: string): boolean {
  return /^https?:\/\//i.test(url);
}

/** Basic auth as actions/checkout sends it: `x-access-token:<token>`. */
export function pushAuthFor(remoteUrl: string, token: string): PushAuth {
  if (!isHttpRemote(remoteUrl) || token === "") return NO_AUTH;
  const origin = new URL(remoteUrl);
  const basic = Buffer.from(`x-access-token:${token}`, "utf8").toString("base64");
  return {
    env: {
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: `http.${origin.protocol}//${origin.host}/.extraheader`,
      GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
    },
  };
}
