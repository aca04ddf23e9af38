/**
 * Address of the Temporal dev server for this test run. Replaced by the Temporal work with a real
 * `temporal server start-dev` from .tools/ started once per run.
 */
export async function testTemporalAddress(): Promise<string> {
  return process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
}
