/**
 * nock for the files that mock GitHub with it: importing nock patches Node's
 * http and fetch for the whole worker, and workers are shared between files,
 * so a file that uses it switches it on for itself only and off again after.
 * Meanwhile nock, not test/no-internet.ts, keeps the Internet out; loopback
 * stays reachable (other tests' servers); a mock a test set up and never used
 * fails that test.
 */
import nock from "nock";
import { afterAll, afterEach, beforeAll } from "vitest";
import { deferInternetGuardToNock } from "./no-internet.ts";

export function useNock(): void {
  beforeAll(() => {
    deferInternetGuardToNock(true);
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
    nock.enableNetConnect((host) => host.startsWith("127.0.0.1") || host.startsWith("localhost"));
  });
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    if (pending.length > 0) throw new Error(`Unused HTTP mocks: ${pending.join(", ")}`);
  });
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
    deferInternetGuardToNock(false);
  });
}
