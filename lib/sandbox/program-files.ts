/**
 * The host files a sandboxed program needs to start when it lives outside the system and PATH
 * directories the sandbox always mounts (an ACP adapter in the Action's `node_modules`, a CLI
 * installed under the runner's home, which the sandbox hides): the program file itself and, for a
 * package installed by npm, the whole `node_modules` tree it sits in, where its dependencies are.
 * Both are bound read-only for that one command.
 */
import { basename, dirname } from "node:path";

/** `realPath` is the program with every link followed (what the sandbox runs). */
export function programFiles(realPath: string): string[] {
  let outermost: string | undefined;
  for (let dir = dirname(realPath); dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === "node_modules") outermost = dir;
  }
  return [outermost ?? realPath];
}
