import { expect } from 'chai';
import { RefusalLog } from './refusal-log';
import { RecordingLogger } from '../test/recording-logger';
import { until } from '../test/mcp-test-client';

const ORIGIN = { status: 403, kind: 'Origin', reason: 'Forbidden: a web page' };
const TOKEN = { status: 401, kind: 'invalid token', reason: 'Unauthorized: invalid bearer token' };

describe('RefusalLog', () => {
    let logger: RecordingLogger;
    let log: RefusalLog;
    const INTERVAL_MS = 300;

    beforeEach(() => {
        logger = new RecordingLogger();
        log = new RefusalLog(logger, { one: 'a request', many: 'requests' }, INTERVAL_MS);
    });
    afterEach(() => log.dispose());

    it('logs the first refusal of each kind in full and counts the rest into one line per interval', async () => {
        for (let i = 0; i < 1000; i++) {
            log.refused(ORIGIN);
        }
        log.refused(TOKEN);
        log.refused(TOKEN);
        expect(logger.lines).to.deep.equal([
            'WARN Refused a request (403): Forbidden: a web page',
            'WARN Refused a request (401): Unauthorized: invalid bearer token'
        ]);
        await until(() => logger.lines.length === 4, 'the summaries');
        expect(logger.lines.slice(2).sort()).to.deep.equal([
            'WARN 1 more requests refused (401 invalid token) in the last 1 s',
            'WARN 999 more requests refused (403 Origin) in the last 1 s'
        ]);
        // More within the next interval: one more summary, not a line each.
        for (let i = 0; i < 50; i++) {
            log.refused(ORIGIN);
        }
        expect(logger.lines).to.have.length(4);
        await until(() => logger.lines.length === 5, 'the next summary');
        expect(logger.lines[4]).to.equal('WARN 50 more requests refused (403 Origin) in the last 1 s');
    });

    it('logs in full again after a quiet interval', async () => {
        log.refused(ORIGIN);
        const quietUntil = Date.now() + INTERVAL_MS + 50;
        await until(() => Date.now() > quietUntil, 'a quiet interval');
        log.refused(ORIGIN);
        expect(logger.lines).to.deep.equal(['WARN Refused a request (403): Forbidden: a web page', 'WARN Refused a request (403): Forbidden: a web page']);
    });

    it('says what it counted when disposed, then stays silent and leaves no timer', async () => {
        const slow = new RefusalLog(logger, { one: 'a connection', many: 'connections' }, 60_000);
        slow.refused(ORIGIN);
        slow.refused(ORIGIN);
        slow.refused(ORIGIN);
        slow.dispose();
        slow.refused(ORIGIN);
        expect(logger.lines).to.deep.equal([
            'WARN Refused a connection (403): Forbidden: a web page',
            'WARN 2 more connections refused (403 Origin) in the last 1 s'
        ]);
        const kinds = (slow as unknown as { kinds: Map<string, { timer?: unknown }> }).kinds;
        expect([...kinds.values()].map(state => state.timer)).to.deep.equal([undefined]);
    });
});
