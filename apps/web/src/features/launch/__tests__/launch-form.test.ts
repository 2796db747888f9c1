import { describe, expect, it } from 'vitest';
import { makeAttachment, makeVolume } from '../../../testing/data';
import { writerRisk } from '../components/launch-form';

describe('writerRisk', () => {
  it('counts the read-write holders the BFF counts: live, and known to the compute service', () => {
    const v = makeVolume({
      status: 'in-use',
      attachments: [
        makeAttachment({ serverId: 's1', serverName: 'writer-1', mode: 'rw', state: 'attached' }),
        makeAttachment({
          serverId: 's2',
          serverName: 'failed',
          mode: 'rw',
          state: 'error_attaching',
          attachmentId: 'a2',
        }),
        makeAttachment({
          serverId: 's3',
          serverName: 'stray',
          mode: 'rw',
          knownToCompute: false,
          attachmentId: 'a3',
        }),
        makeAttachment({ serverId: 's4', serverName: 'reader', mode: 'ro', attachmentId: 'a4' }),
      ],
    });
    expect(writerRisk(v, 'rw', 1)).toEqual({ newWriters: 1, existing: ['writer-1'] });
    expect(writerRisk(v, 'ro', 1)).toBeNull();
  });
});
