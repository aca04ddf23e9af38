let loopbackAllowed = false;

/**
 * Tests run the company's endpoint as an http receiver on loopback. Only test code calls this
 * (docs/channels/custom.md); nothing in the app or its configuration can turn it on. It is passed to the
 * guarded client as its `allowLoopbackForTests` option, when saving the endpoint and when delivering.
 */
export function allowLoopbackCustomEndpointsForTests(allowed: boolean): void {
  loopbackAllowed = allowed;
}

export function customLoopbackAllowed(): boolean {
  return loopbackAllowed;
}
