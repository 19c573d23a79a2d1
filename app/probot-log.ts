/** Probot logs with pino; lib/ takes a four-method port. */
import type { Logger } from "probot";
import type { Log } from "../lib/github/index.ts";

export function logPort(logger: Logger): Log {
  return {
    debug: (message) => logger.debug(message),
    info: (message) => logger.info(message),
    warn: (message) => logger.warn(message),
    error: (message) => logger.error(message),
  };
}
