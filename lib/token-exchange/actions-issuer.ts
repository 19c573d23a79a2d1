/**
 * The OIDC issuer of GitHub Actions for the GitHub the app serves: github.com's
 * own issuer, or on GitHub Enterprise Server `https://HOST/_services/token`
 * (https://docs.github.com/enterprise-server@latest/actions/security-for-github-actions/security-hardening-your-deployments/about-security-hardening-with-openid-connect).
 */
import { GITHUB_ACTIONS_ISSUER } from "./oidc-verifier.ts";

export interface GitHubHost {
  /** Probot's GHE_HOST: the Enterprise Server's host name, absent for github.com. */
  readonly host?: string | undefined;
  /** Probot's GHE_PROTOCOL (default https). */
  readonly protocol?: string | undefined;
}

export function actionsIssuerFor(github: GitHubHost): string {
  if (!github.host) return GITHUB_ACTIONS_ISSUER;
  return `${github.protocol || "https"}://${github.host}/_services/token`;
}
