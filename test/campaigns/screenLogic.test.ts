import { expect } from 'chai';
import { dayIn, zonedToIso } from '../../ui/src/campaigns/zone';
import { QueryClient } from '@tanstack/react-query';
import { campaignBatches } from '../../ui/src/campaigns/batches';
import { applyCampaign } from '../../ui/src/campaigns/applyCampaign';
import type { Campaign, CampaignPage } from '../../ui/src/campaigns/types';

/** The /campaigns screens' own arithmetic (no browser): start dates in the workspace's zone, the batches. */
describe('campaign screens: start date in the workspace time zone and the batch timeline', () => {
  it('reads the wizard wall-clock start in the workspace zone, not the browser one', () => {
    expect(zonedToIso('2026-11-25T10:00', 'America/Sao_Paulo')).to.equal('2026-11-25T13:00:00.000Z');
    expect(zonedToIso('2026-11-25T10:00', 'Asia/Tokyo')).to.equal('2026-11-25T01:00:00.000Z');
    // Across a DST change: New York is UTC-4 in July and UTC-5 in December.
    expect(zonedToIso('2026-07-01T09:30', 'America/New_York')).to.equal('2026-07-01T13:30:00.000Z');
    expect(zonedToIso('2026-12-01T09:30', 'America/New_York')).to.equal('2026-12-01T14:30:00.000Z');
    expect(zonedToIso('', 'America/Sao_Paulo')).to.equal(undefined);
    expect(zonedToIso('25/11/2026 10:00', 'America/Sao_Paulo')).to.equal(undefined);
  });

  it('takes "today" in the workspace zone (01:00 UTC is still yesterday in São Paulo)', () => {
    const at = new Date('2026-11-25T01:00:00Z');
    expect(dayIn('America/Sao_Paulo', at)).to.equal('2026-11-24');
    expect(dayIn('UTC', at)).to.equal('2026-11-25');
  });

  it('derives the batches from the counters: done, partly sent, waiting, and not sent once the campaign is over', () => {
    const states = (c: Parameters<typeof campaignBatches>[0], max?: number) => campaignBatches(c, max).batches.map((b) => `${b.n}:${b.from}-${b.to}:${b.state}`);
    expect(states({ status: 'executing', chunks: 2, totalNumbers: 5, totalNumbersExecuted: 3 })).to.deep.equal(['1:1-2:done', '2:3-4:running', '3:5-5:waiting']);
    expect(states({ status: 'executing', chunks: 2, totalNumbers: 4, totalNumbersExecuted: 2 })).to.deep.equal(['1:1-2:done', '2:3-4:waiting']);
    expect(states({ status: 'paused', chunks: 2, totalNumbers: 4, totalNumbersExecuted: 3 })).to.deep.equal(['1:1-2:done', '2:3-4:waiting']);
    expect(states({ status: 'canceled', chunks: 2, totalNumbers: 4, totalNumbersExecuted: 1 })).to.deep.equal(['1:1-2:stopped', '2:3-4:stopped']);
    expect(states({ status: 'waiting_file_processing', chunks: 100, totalNumbers: 0, totalNumbersExecuted: 0 })).to.deep.equal([]);
  });

  it('builds only a window of batches around the current one for a huge campaign', () => {
    const huge = campaignBatches({ status: 'executing', chunks: 1, totalNumbers: 100_000, totalNumbersExecuted: 50_000 }, 12);
    expect(huge.total).to.equal(100_000);
    expect(huge.batches).to.have.length(12);
    expect(huge.batches[0]).to.deep.equal({ n: 49_999, from: 49_999, to: 49_999, state: 'done' });
    expect(huge.batches[2]).to.deep.include({ n: 50_001, state: 'waiting' });
    const end = campaignBatches({ status: 'finished_success', chunks: 1, totalNumbers: 100_000, totalNumbersExecuted: 100_000 }, 12);
    expect(end.batches.map((b) => b.n)).to.deep.equal(Array.from({ length: 12 }, (_, i) => 99_989 + i));
    expect(end.batches.every((b) => b.state === 'done')).to.equal(true);
  });

  it('a pause/resume answer that arrives after newer live progress does not turn the campaign back (regression)', () => {
    const qc = new QueryClient();
    const base = { id: 7, name: 'Pedidos', status: 'executing', totalNumbers: 4, totalNumbersExecuted: 2, completion: 50 } as Campaign;
    qc.setQueryData(['campaigns', 'one', 7], base);
    qc.setQueryData<CampaignPage>(['campaigns', 'list', 0], { data: [base, { ...base, id: 8, name: 'Outra' }], total: 2 });
    // Live: the run finished while the resume's answer (waiting_processing, 2 / 4) was on its way.
    applyCampaign(qc, { id: 7, status: 'finished_success', totalNumbers: 4, totalNumbersExecuted: 4, totalNumbersFailed: 0, totalNumbersInvalid: 0, completion: 100, pauseReason: null, error: null });
    applyCampaign(qc, { ...base, status: 'waiting_processing' });
    expect(qc.getQueryData<Campaign>(['campaigns', 'one', 7])).to.deep.include({ status: 'finished_success', totalNumbersExecuted: 4, completion: 100 });
    const list = qc.getQueryData<CampaignPage>(['campaigns', 'list', 0])!;
    expect(list.data[0]).to.deep.include({ status: 'finished_success', totalNumbersExecuted: 4 });
    expect(list.data[1]).to.deep.include({ id: 8, status: 'executing', totalNumbersExecuted: 2 });
    // A late event with a lower count keeps the higher one; a real change of status still applies.
    applyCampaign(qc, { ...base, id: 8, status: 'paused', totalNumbersExecuted: 1, completion: 25 });
    expect(qc.getQueryData<CampaignPage>(['campaigns', 'list', 0])!.data[1]).to.deep.include({ status: 'paused', totalNumbersExecuted: 2, completion: 50 });
  });
});
