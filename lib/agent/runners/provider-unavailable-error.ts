/** The configured provider cannot run here (CLI not installed, no API key): a setup problem, never retried. */
export class ProviderUnavailableError extends Error {
  readonly provider: string;

  constructor(provider: string, message: string) {
    super(message);
    this.name = "ProviderUnavailableError";
    this.provider = provider;
  }
}

export function commandNotFound(
  provider: string,
  command: string,
  install: string,
): ProviderUnavailableError {
  return new ProviderUnavailableError(
    provider,
    `\`${command}\` was not found on PATH; install ${install} or set provider: builtin`,
  );
}
