let loopbackAllowed = false;

/**
 * Tests run the company's SMTP server as a real smtp-server on loopback. Only test code calls this
 * (docs/channels/email.md); nothing in the app or its configuration can turn it on.
 */
export function allowLoopbackCompanySmtpForTests(allowed: boolean): void {
  loopbackAllowed = allowed;
}

export function companySmtpLoopbackAllowed(): boolean {
  return loopbackAllowed;
}
