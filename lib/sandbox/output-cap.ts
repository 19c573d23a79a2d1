/**
 * A command's output within a byte budget: the first `headBytes` pass straight on, the last
 * `tailBytes` are held and passed on at the end, and only the count of what fell between is kept,
 * so `yes` costs neither memory nor a copy of every byte. The session's init (session-init.ts)
 * does the same inside the sandbox, before anything crosses to Locus's process.
 */

export interface OutputCap {
  push(stream: 1 | 2, chunk: Buffer): void;
  /** Passes on the held tail; returns the bytes left out. */
  end(): number;
}

export function createOutputCap(
  headBytes: number,
  tailBytes: number,
  onOutput: (stream: 1 | 2, chunk: Buffer) => void,
): OutputCap {
  let passed = 0;
  let held: { stream: 1 | 2; chunk: Buffer }[] = [];
  let heldBytes = 0;
  let dropped = 0;
  return {
    push(stream, chunk) {
      if (passed < headBytes) {
        const room = headBytes - passed;
        const now = chunk.length <= room ? chunk : chunk.subarray(0, room);
        passed += now.length;
        onOutput(stream, now);
        if (now.length === chunk.length) return;
        chunk = chunk.subarray(now.length);
      }
      held.push({ stream, chunk });
      heldBytes += chunk.length;
      while (heldBytes > tailBytes) {
        const first = held[0]!;
        const over = heldBytes - tailBytes;
        if (first.chunk.length <= over) {
          held.shift();
          heldBytes -= first.chunk.length;
          dropped += first.chunk.length;
        } else {
          first.chunk = first.chunk.subarray(over);
          heldBytes -= over;
          dropped += over;
        }
      }
    },
    end() {
      for (const { stream, chunk } of held) onOutput(stream, chunk);
      held = [];
      heldBytes = 0;
      return dropped;
    },
  };
}
