import nock from "nock";
import { afterEach } from "vitest";

// Tests talk to loopback servers we start ourselves, never to the Internet.
nock.disableNetConnect();
nock.enableNetConnect((host) => host.startsWith("127.0.0.1") || host.startsWith("localhost"));

afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  if (pending.length > 0) throw new Error(`Unused HTTP mocks: ${pending.join(", ")}`);
});
