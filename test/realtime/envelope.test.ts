import { expect } from 'chai';
import { assertPublishableTopic, eventIdSource, makeEnvelope } from '../../api/realtime/envelope';

describe('realtime: event envelope and ids', () => {
  it('gives ids that sort in publication order, within a millisecond and when the clock steps back', () => {
    const nextEventId = eventIdSource();
    const now = Date.now();
    const ids = [nextEventId(now), nextEventId(now), nextEventId(now), nextEventId(now - 5000), nextEventId(now + 1)];
    expect(new Set(ids).size).to.equal(ids.length);
    expect([...ids].sort()).to.deep.equal(ids);
  });

  it('keeps sorting across a change in the number of digits of the time', () => {
    const nextEventId = eventIdSource();
    const a = nextEventId(Date.now());
    const b = nextEventId(36 ** 9 - 1);
    expect(a < b).to.equal(true);
    expect(a).to.have.length(b.length);
  });

  it('keeps ids of two processes apart when they share a millisecond', () => {
    const now = Date.now();
    expect(eventIdSource()(now)).not.to.equal(eventIdSource()(now));
  });

  it('wraps data as {event, data, id, at}', () => {
    const env = makeEnvelope('chat.newMessage', { id: 1 });
    expect(env).to.have.all.keys('event', 'data', 'id', 'at');
    expect(env.event).to.equal('chat.newMessage');
    expect(new Date(env.at).toISOString()).to.equal(env.at);
  });

  it('refuses to publish on wildcard or reserved topics', () => {
    for (const topic of ['ws/1/#', 'ws/+/all', '$SYS/x', '']) expect(() => assertPublishableTopic(topic), topic).to.throw();
    expect(() => assertPublishableTopic('ws/1/all')).not.to.throw();
  });
});
