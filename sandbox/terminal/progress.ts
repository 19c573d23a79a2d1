/**
 * One status line for long steps, redrawn under the timeline on a TTY; on a
 * pipe (CI) it prints nothing, so logs stay plain lines.
 */

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 100;

export interface Output {
  write(text: string): void;
  readonly isTTY: boolean;
}

export interface Progress {
  start(label: string): void;
  stop(): void;
  /** Prints a line above the progress line. */
  print(line: string): void;
}

export function createProgress(out: Output, now: () => number = Date.now): Progress {
  let label: string | undefined;
  let since = 0;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;

  function clear(): void {
    if (out.isTTY && label !== undefined) out.write("\r\x1b[2K");
  }
  function draw(): void {
    if (!out.isTTY || label === undefined) return;
    const seconds = Math.floor((now() - since) / 1000);
    out.write(
      `\r\x1b[2K\x1b[36m${FRAMES[frame % FRAMES.length] ?? ""}\x1b[0m ${label} \x1b[2m${seconds}s\x1b[0m`,
    );
  }

  return {
    start(next) {
      clear();
      label = next;
      since = now();
      if (!out.isTTY) return;
      draw();
      timer ??= setInterval(() => {
        frame += 1;
        draw();
      }, FRAME_MS);
    },
    stop() {
      clear();
      label = undefined;
      clearInterval(timer);
      timer = undefined;
    },
    print(line) {
      clear();
      out.write(`${line}\n`);
      draw();
    },
  };
}
