import { refuseInternetConnections } from "./no-internet.ts";

// Tests talk to loopback servers we start ourselves, never to the Internet.
refuseInternetConnections();
