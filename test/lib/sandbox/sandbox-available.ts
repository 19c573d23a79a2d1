/**
 * Tests that need bubblewrap run wherever it works; in CI (`CI=true`, where .ci/run installs it)
 * they always run, so a missing or refused sandbox fails them instead of skipping them.
 */
import { describe } from "vitest";
import { probeBubblewrap } from "../../../lib/sandbox/probe.ts";

export const sandboxProbe = probeBubblewrap(process.env["PATH"]);

export const describeWithSandbox = describe.skipIf(!sandboxProbe.ok && process.env["CI"] !== "true");
