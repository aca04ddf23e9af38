import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker } from '@temporalio/worker';

const workflowsPath = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));
const historiesDir = fileURLToPath(new URL('./histories/', import.meta.url));

/**
 * Recorded bot-session histories (written by botSession.test.ts with RECORD_BOT_HISTORIES=1) replayed
 * against today's workflow code: a change that would break running sessions fails here
 * (DeterminismViolationError). Change the workflow with `patched()` when one does.
 */
describe('botSession replay of recorded histories', function () {
  this.timeout(60_000);
  before(() => {
    try {
      // Replay workers log every state change at INFO; a run that already installed a runtime keeps it.
      Runtime.install({ logger: new DefaultLogger('WARN'), telemetryOptions: { logging: { filter: { core: 'ERROR', other: 'ERROR' }, forward: {} } } });
    } catch {
      /* installed earlier in this process */
    }
  });

  it('every recorded history still replays', async () => {
    const files = readdirSync(historiesDir).filter((f) => f.endsWith('.json')).sort();
    expect(files.length).to.be.at.least(5);
    const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') });
    const histories = files.map((f) => ({
      workflowId: `bot-session:replay-${path.basename(f, '.json')}`,
      history: temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(path.join(historiesDir, f), 'utf8'))),
    }));
    const results: { workflowId: string; error?: string }[] = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle, replayName: 'bot-session-histories' }, histories)) {
      results.push({ workflowId: r.workflowId, error: r.error ? String(r.error) : undefined });
    }
    expect(results).to.deep.equal(histories.map((h) => ({ workflowId: h.workflowId, error: undefined })));
  });

  it('a workflow change that breaks determinism is caught', async () => {
    const history = JSON.parse(readFileSync(path.join(historiesDir, 'menu-goto-tag-resolve.json'), 'utf8')) as { events: { eventType: string; markerRecordedEventAttributes?: unknown }[] };
    // Drop the first local-activity marker: the code asks for a step the history does not have.
    const i = history.events.findIndex((e) => e.eventType === 'EVENT_TYPE_MARKER_RECORDED');
    history.events.splice(i, 1);
    const workflowBundle = await bundleWorkflowCode({ workflowsPath, logger: new DefaultLogger('WARN') });
    const results = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle }, [{ workflowId: 'bot-session:broken', history: temporal.api.history.v1.History.fromObject(history) }])) results.push(r);
    expect(results).to.have.length(1);
    expect(results[0].error, 'a replay error').to.not.equal(undefined);
  });
});
