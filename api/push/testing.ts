let loopbackAllowed = false;

/**
 * Tests run the push service fake (test/fakes/pushService.ts) over http on loopback. Only test code calls
 * this; nothing in the app or its configuration can turn it on. Real endpoints are https on public
 * addresses (FCM, Mozilla autopush, Apple), vetted by the guarded client when subscribing and sending.
 */
export function allowLoopbackPushForTests(allowed: boolean): void {
  loopbackAllowed = allowed;
}

export function pushLoopbackAllowed(): boolean {
  return loopbackAllowed;
}
