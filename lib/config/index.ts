export {
  CURRENT_CONFIG_VERSION,
  DEFAULT_SHELL_DENY,
  configJsonSchema,
  configSchema,
  defaultConfig,
  type LocusConfig,
} from "./schema.ts";
export { loadConfig, type ConfigError, type LoadConfigResult } from "./load-config.ts";
export { CONFIG_MIGRATIONS, type ConfigMigration } from "./migrations.ts";
export {
  decideShellCommand,
  matchesShellPolicy,
  type ShellDecision,
  type ShellPolicy,
} from "./shell-policy.ts";
