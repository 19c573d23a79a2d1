/**
 * Reads the `.env` file Probot's setup flow writes (APP_ID, PRIVATE_KEY,
 * WEBHOOK_SECRET, …) into the environment before anything checks or reads it,
 * so `npm start` after the setup flow runs the app it registered. What the
 * environment already sets wins, as with Node's `--env-file`. Answers the names
 * taken from the file, for messages that say where a value came from.
 */
import { readFileSync } from "node:fs";
import { parseEnv } from "node:util";

export function loadEnvFile(path: string, env: Record<string, string | undefined>): string[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const taken: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    taken.push(name);
  }
  return taken;
}
