/**
 * Which image URLs Locus fetches: GitHub's own attachment storage and nothing else. When someone
 * attaches a file to an issue or comment, GitHub stores it and writes a link to it into the text
 * (https://docs.github.com/en/get-started/writing-on-github/working-with-advanced-formatting/attaching-files):
 * today `https://github.com/user-attachments/assets/<id>`, earlier
 * `https://user-images.githubusercontent.com/…` and `https://private-user-images.githubusercontent.com/…`;
 * on GitHub Enterprise Server the same paths on the server's own host. Any other URL, even one that
 * looks like an image, is someone else's server: Locus never calls it, so a writer's text cannot
 * make the run reach outside GitHub (nor send the run's token there).
 */

const DOTCOM = "github.com";
/** GitHub's older attachment hosts: every path on them is an attachment. */
const ATTACHMENT_HOSTS = ["user-images.githubusercontent.com", "private-user-images.githubusercontent.com"];
/** Where github.com sends an attachment's download (a signed, short-lived URL); never asked first. */
const STORAGE_HOSTS = ["github-production-user-asset-6210df.s3.amazonaws.com"];
const ATTACHMENT_PATH = /^\/user-attachments\/assets\/[A-Za-z0-9-]+\/?$/;

/**
 * Whether `url` is an attachment GitHub stores: on github.com (or `server`, GitHub Enterprise
 * Server's own address, `GITHUB_SERVER_URL`) under `/user-attachments/assets/`, or on one of
 * GitHub's attachment hosts. Only https, except for the server's own scheme.
 */
export function isAttachmentUrl(url: string, server: string): boolean {
  const parsed = parse(url);
  if (parsed === undefined || parsed.username !== "" || parsed.password !== "") return false;
  const own = parse(server);
  const onServer = own !== undefined && parsed.protocol === own.protocol && parsed.host === own.host;
  if (onServer || (parsed.protocol === "https:" && parsed.host === DOTCOM)) {
    return ATTACHMENT_PATH.test(parsed.pathname);
  }
  return parsed.protocol === "https:" && ATTACHMENT_HOSTS.includes(parsed.host);
}

/**
 * Whether a download may follow GitHub's redirect to `url`: to another attachment URL, or to the
 * storage GitHub keeps attachments in. The run's token goes only with the first request.
 */
export function mayFollowRedirect(url: string, server: string): boolean {
  const parsed = parse(url);
  if (parsed === undefined) return false;
  return (
    isAttachmentUrl(url, server) || (parsed.protocol === "https:" && STORAGE_HOSTS.includes(parsed.host))
  );
}

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
