import { expect } from 'chai';
import { createLogger, prettyLine, requestLogLevel } from '../api/logger';

describe('logs in the terminal of npm start', () => {
  it('turns a JSON log line into one readable line with its fields', () => {
    const line = prettyLine(JSON.stringify({ level: 40, time: Date.UTC(2026, 0, 1, 12, 4, 5), pid: 1, hostname: 'h', name: 'api', msg: 'inbound events republished', count: 3, path: '/a b' }));
    expect(line).to.match(/^\d\d:\d\d:\d\d WARN {2}api inbound events republished count=3 path="\/a b"$/);
  });

  it('puts an error stack under its line', () => {
    const line = prettyLine(JSON.stringify({ level: 50, time: 0, name: 'worker', msg: 'falhou', err: { message: 'boom', stack: 'Error: boom\n    at x' } }));
    expect(line).to.include('ERROR worker falhou');
    expect(line).to.include('\n    Error: boom');
  });

  it('logs requests at debug in the pretty format and at info in JSON', () => {
    expect(requestLogLevel('pretty')).to.equal('debug');
    expect(requestLogLevel('json')).to.equal('info');
    expect(createLogger('info', 'api', 'pretty').isLevelEnabled(requestLogLevel('pretty'))).to.equal(false);
    expect(createLogger('info', 'api', 'json').isLevelEnabled(requestLogLevel('json'))).to.equal(true);
  });
});
