/** PATH lookup without a shell, synchronous for the one-time sandbox probe. */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export function findExecutableSync(command: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here; keep looking.
    }
  }
  return undefined;
}
