/**
 * Whether viewing an image reaches anyone but GitHub. GitHub's image proxy
 * fetches an outside image every time the page is viewed, so its URL is a
 * channel out for whatever it carries; images GitHub serves itself are not.
 */
const GITHUB_IMAGE_HOST =
  /^(?:github\.com|[\w-]+\.githubusercontent\.com|github\.githubassets\.com|user-images\.githubusercontent\.com)$/i;

/** Whether an image at this URL is served by GitHub itself (so viewing it reaches nobody else). */
export function isGitHubImage(url: string): boolean {
  const trimmed = url.trim().replace(/^<|>$/g, "");
  if (!/^https:\/\//i.test(trimmed)) return false;
  try {
    return GITHUB_IMAGE_HOST.test(new URL(trimmed).hostname);
  } catch {
    return false;
  }
}
