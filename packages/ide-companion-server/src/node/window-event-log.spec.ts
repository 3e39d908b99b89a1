import { expect } from 'chai';
import { RecordingLogger } from './test/recording-logger';
import { WindowEventLog } from './window-event-log';

describe('WindowEventLog', () => {
    it('keeps the most recent events up to its capacity and passes every message to the backend log', () => {
        const backend = new RecordingLogger();
        const log = new WindowEventLog(backend, 3);
        const fired: string[] = [];
        log.onDidLog(event => fired.push(`${event.level}:${event.message}`));
        log.info('one');
        log.warn('two');
        log.debug('not for the window');
        log.error('three');
        log.info('four');
        expect(log.recent.map(event => event.message)).to.deep.equal(['two', 'three', 'four']);
        expect(fired).to.deep.equal(['info:one', 'warn:two', 'error:three', 'info:four']);
        expect(backend.lines).to.have.length(5);
        expect(log.recent.every(event => typeof event.time === 'number' && event.time > 0)).to.equal(true);
    });
});
