import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import {
  CAPTURE_FILE_PATTERN,
  CaptureSpace,
  captureFilePath,
  isCaptureFileName,
  METADATA_ENDPOINT,
  newCaptureFileName,
  parseCaptureId,
  startCapture,
  teamCaptureDir,
  type CaptureMeta,
  type CaptureOptions,
} from '../../../server/src/modules/instances/capture';
import {
  dummyMac,
  encodePacket,
  ipv6Bytes,
  MAX_UDP_PAYLOAD,
  pcapGlobalHeader,
  udpChecksum,
} from '../../../server/src/modules/instances/capture.pcap';
import { parsePcap, readPcap } from '../../helpers/pcap-reader';

const dataDirs: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctf-pcap-'));
  dataDirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

const meta: CaptureMeta = {
  challenge: 'Echo ✓',
  challengeId: 7,
  team: 'Team "A"',
  teamId: 3,
  containerId: '0b5f0a4e-1111-4222-8333-444455556666',
  flag: 'flag{captured}',
};

const ipv4 = {
  client: { address: '203.0.113.7', port: 51000 },
  container: { address: '172.17.0.2', port: 8080 },
};

function recorder(dir: string, options: CaptureOptions & { endpoints?: typeof ipv4 } = {}) {
  const { endpoints, ...limits } = options;
  return startCapture(
    { dataDir: dir, challengeId: 7, participationId: 11, containerRowId: meta.containerId },
    endpoints ?? ipv4,
    meta,
    limits,
  );
}

/** The last datagram's `{"dropped": …}` note. */
function droppedNote(packets: ReturnType<typeof readPcap>): { packets: number; bytes: number } {
  const note = packets.at(-1)!;
  assert.equal(note.source, METADATA_ENDPOINT.address, 'the last datagram is a note');
  return (JSON.parse(note.payload.toString('utf8')) as { dropped: { packets: number; bytes: number } }).dropped;
}

/** A file system whose free space (and files) a test sets, counting how often it is asked. */
function volume(freeBytes: number, inodes = { files: 1_000_000, ffree: 500_000 }) {
  const state = { freeBytes, ...inodes, calls: 0, time: 0 };
  const options = {
    statfs: async () => {
      state.calls += 1;
      return { bavail: state.freeBytes / 4096, bsize: 4096, files: state.files, ffree: state.ffree };
    },
    now: () => state.time,
    intervalMs: 5_000,
  };
  return { state, options };
}

describe('pcap recorder', () => {
  test('writes a valid pcap: metadata first, then both directions in order, large chunks split', async () => {
    const dir = dataDir();
    const capture = recorder(dir);
    const large = randomBytes(150_000);
    capture.fromClient(Buffer.from('hello'));
    capture.fromContainer(Buffer.from('world!'));
    capture.fromClient(large);
    capture.fromContainer(Buffer.from('bye'));
    const file = await capture.close();

    assert.ok(file);
    assert.equal(path.dirname(file), path.join(dir, 'files', 'capture', '7', '11'));
    assert.match(path.basename(file), CAPTURE_FILE_PATTERN);
    assert.ok(path.basename(file).startsWith('0b5f0a4e-'), 'named after the container row id');
    assert.deepEqual(fs.readdirSync(path.dirname(file)), [path.basename(file)], 'no temporary file is left');

    const pcap = parsePcap(fs.readFileSync(file));
    assert.equal(pcap.versionMajor, 2);
    assert.equal(pcap.versionMinor, 4);
    assert.equal(pcap.linkType, 1);
    assert.ok(pcap.microseconds);
    for (const packet of pcap.packets) {
      assert.ok(packet.checksumValid, 'UDP checksum');
      assert.ok(packet.payload.length <= MAX_UDP_PAYLOAD);
    }

    const [first, ...rest] = pcap.packets;
    assert.ok(first);
    assert.equal(first.source, METADATA_ENDPOINT.address);
    assert.equal(first.sourcePort, METADATA_ENDPOINT.port);
    assert.deepEqual(JSON.parse(first.payload.toString('utf8')), meta);

    const client = { address: '::ffff:203.0.113.7', port: 51000 };
    const container = { address: '::ffff:172.17.0.2', port: 8080 };
    const expected = [
      { from: client, to: container, payload: Buffer.from('hello') },
      { from: container, to: client, payload: Buffer.from('world!') },
      { from: client, to: container, payload: large.subarray(0, MAX_UDP_PAYLOAD) },
      { from: client, to: container, payload: large.subarray(MAX_UDP_PAYLOAD, 2 * MAX_UDP_PAYLOAD) },
      { from: client, to: container, payload: large.subarray(2 * MAX_UDP_PAYLOAD) },
      { from: container, to: client, payload: Buffer.from('bye') },
    ];
    assert.equal(rest.length, expected.length);
    rest.forEach((packet, index) => {
      const want = expected[index]!;
      assert.equal(packet.source, want.from.address, `source of packet ${index}`);
      assert.equal(packet.sourcePort, want.from.port);
      assert.equal(packet.destination, want.to.address);
      assert.equal(packet.destinationPort, want.to.port);
      assert.ok(packet.payload.equals(want.payload), `payload of packet ${index}`);
    });
    const clientMac = rest[0]!.sourceMac;
    const containerMac = rest[0]!.destinationMac;
    assert.notEqual(clientMac, containerMac);
    assert.equal(rest[1]!.sourceMac, containerMac);
    assert.equal(rest[1]!.destinationMac, clientMac);

    const times = pcap.packets.map((packet) => packet.timestampUs);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
      'timestamps never go back',
    );
    assert.ok(Math.abs(times[0]! / 1000 - Date.now()) < 3_600_000, 'timestamps are wall-clock microseconds');
  });

  test('maps IPv6, IPv4-mapped and zoned addresses', async () => {
    const capture = recorder(dataDir(), {
      endpoints: {
        client: { address: '2001:db8:1::5', port: 1 },
        container: { address: '::ffff:10.0.0.3', port: 65535 },
      },
    });
    capture.fromClient(Buffer.from('x'));
    const zoned = recorder(dataDir(), {
      endpoints: { client: { address: 'fe80::1%eth0', port: 2 }, container: { address: 'not an ip', port: 3 } },
    });
    zoned.fromContainer(Buffer.from('y'));

    const [, packet] = readPcap(fs.readFileSync((await capture.close())!));
    assert.equal(packet!.source, '2001:db8:1::5');
    assert.equal(packet!.destination, '::ffff:10.0.0.3');
    assert.equal(packet!.destinationPort, 65535);
    const [, reply] = readPcap(fs.readFileSync((await zoned.close())!));
    assert.equal(reply!.source, '::', 'an unparseable address is the unspecified one');
    assert.equal(reply!.destination, 'fe80::1');
  });

  test('a connection without payload keeps nothing', async () => {
    const dir = dataDir();
    const capture = recorder(dir);
    capture.fromClient(Buffer.alloc(0));
    capture.fromContainer(Buffer.alloc(0));
    assert.equal(await capture.close(), undefined);
    assert.equal(fs.existsSync(path.join(dir, 'files', 'capture')), false);
  });

  test('records what was passed even if the caller reuses its buffer; close is idempotent', async () => {
    const capture = recorder(dataDir());
    const buffer = Buffer.from('secret');
    capture.fromClient(buffer);
    buffer.fill(0);
    const file = await capture.close();
    assert.equal(await capture.close(), file);
    capture.fromClient(Buffer.from('too late'));
    const packets = readPcap(fs.readFileSync(file!));
    assert.deepEqual(
      packets.slice(1).map((packet) => packet.payload.toString()),
      ['secret'],
    );
  });

  test('beyond the memory bound packets are dropped and the loss noted, never buffered', async () => {
    const bound = 8 * 1024;
    const capture = recorder(dataDir(), { maxBufferedBytes: bound });
    const chunks = Array.from({ length: 100 }, (_, index) => Buffer.alloc(1000, index));
    // All in one turn of the event loop: the writer cannot drain anything meanwhile.
    for (const chunk of chunks) capture.fromContainer(chunk);
    const file = await capture.close();

    const packets = readPcap(fs.readFileSync(file!));
    const note = packets.at(-1)!;
    assert.equal(note.source, METADATA_ENDPOINT.address);
    const { dropped } = JSON.parse(note.payload.toString('utf8')) as { dropped: { packets: number; bytes: number } };
    const kept = packets.slice(1, -1);
    assert.ok(kept.length > 0 && kept.length < chunks.length);
    assert.equal(kept.length + dropped.packets, chunks.length);
    assert.equal(dropped.bytes, dropped.packets * 1000);
    kept.forEach((packet, index) => assert.ok(packet.payload.equals(chunks[index]!), 'the first chunks are kept'));
    const keptBytes = kept.reduce((sum, packet) => sum + packet.payload.length + 78, 0);
    assert.ok(keptBytes <= bound, 'what was held stayed within the bound');
  });

  test('a chunk larger than the bound keeps the datagrams that fit', async () => {
    const capture = recorder(dataDir(), { maxBufferedBytes: 2 * MAX_UDP_PAYLOAD });
    capture.fromClient(randomBytes(5 * MAX_UDP_PAYLOAD));
    const packets = readPcap(fs.readFileSync((await capture.close())!));
    const { dropped } = JSON.parse(packets.at(-1)!.payload.toString('utf8')) as { dropped: { packets: number } };
    assert.equal(packets.length - 2 + dropped.packets, 5);
    assert.ok(dropped.packets >= 3);
  });

  test('a file stops growing at its bound: the rest of the connection is only counted, in the last note', async () => {
    const bound = 64 * 1024;
    const capture = recorder(dataDir(), { maxFileBytes: bound });
    const chunks = Array.from({ length: 64 }, (_, index) => Buffer.alloc(16 * 1024, index));
    for (const chunk of chunks) {
      capture.fromContainer(chunk);
      // Across turns of the event loop, so the memory bound is never what drops them.
      await new Promise((resolve) => setImmediate(resolve));
    }
    // Once full, even a small chunk that would fit is not recorded: the file has no gaps.
    capture.fromClient(Buffer.from('late'));
    const file = await capture.close();
    const size = fs.statSync(file!).size;
    assert.ok(size <= bound + 256, `the file has ${size} bytes`);
    const packets = readPcap(fs.readFileSync(file!));
    const dropped = droppedNote(packets);
    const kept = packets.slice(1, -1);
    kept.forEach((packet, index) => assert.ok(packet.payload.equals(chunks[index]!), 'the first chunks are kept'));
    assert.equal(kept.length + dropped.packets, chunks.length + 1);
    assert.equal(dropped.bytes, 64 * 16 * 1024 + 4 - kept.length * 16 * 1024);
  });

  test('no file is started while the volume is low on space; one under way stops and notes the rest', async () => {
    const low = volume(10 * 1024 * 1024);
    const changes: boolean[] = [];
    const space = new CaptureSpace(dataDir(), { minFreeBytes: 100 * 1024 * 1024, ...low.options });
    const skipped = dataDir();
    const capture = recorder(skipped, { space });
    capture.fromClient(Buffer.from('not recorded'));
    assert.equal(await capture.close(), undefined);
    assert.deepEqual(fs.readdirSync(skipped), [], 'no folder, no file');

    const roomy = volume(1024 * 1024 * 1024);
    const shared = new CaptureSpace(dataDir(), {
      minFreeBytes: 100 * 1024 * 1024,
      ...roomy.options,
      onChange: (isLow) => changes.push(isLow),
    });
    const running = recorder(dataDir(), { space: shared });
    running.fromClient(Buffer.from('kept'));
    assert.equal(await shared.enough(), true);
    // The volume fills; the next look (the last one is old by now) tells the recorder.
    roomy.state.freeBytes = 1024;
    roomy.state.time += 5_000;
    assert.equal(await shared.enough(), false);
    running.fromContainer(Buffer.from('dropped'));
    const packets = readPcap(fs.readFileSync((await running.close())!));
    assert.deepEqual(
      packets.slice(1, -1).map((packet) => packet.payload.toString()),
      ['kept'],
    );
    assert.deepEqual(droppedNote(packets), { packets: 1, bytes: 'dropped'.length });
    assert.deepEqual(changes, [true]);
  });

  test('a volume out of files (inodes) is low too, unless it makes them as needed', async () => {
    const fewFiles = volume(1024 * 1024 * 1024, { files: 1_000_000, ffree: 100 });
    const noRoom = new CaptureSpace(dataDir(), { minFreeBytes: 1, ...fewFiles.options });
    assert.equal(await noRoom.enough(), false);
    const skipped = dataDir();
    const capture = recorder(skipped, { space: noRoom });
    capture.fromClient(Buffer.from('not recorded'));
    assert.equal(await capture.close(), undefined);
    assert.deepEqual(fs.readdirSync(skipped), []);
    // btrfs and ZFS report no inode counts at all.
    const dynamic = volume(1024 * 1024 * 1024, { files: 0, ffree: 0 });
    assert.equal(await new CaptureSpace(dataDir(), { minFreeBytes: 1, ...dynamic.options }).enough(), true);
  });

  test('the volume is asked at most once per interval, however many recorders start', async () => {
    const { state, options } = volume(1024 * 1024 * 1024);
    const space = new CaptureSpace(dataDir(), { minFreeBytes: 1, ...options });
    const dir = dataDir();
    const captures = Array.from({ length: 20 }, () => recorder(dir, { space }));
    for (const capture of captures) capture.fromClient(Buffer.from('x'));
    await Promise.all(captures.map((capture) => capture.close()));
    assert.equal(state.calls, 1);
    state.time += 5_000;
    assert.equal(await space.enough(), true);
    assert.equal(state.calls, 2);
  });

  test("while the proxy's memory budget is spent the queue keeps to a small bound, and what it held is given back", async () => {
    let held = 0;
    let peak = 0;
    const memory = {
      pressed: true,
      add(bytes: number) {
        held += bytes;
        peak = Math.max(peak, held);
      },
    };
    const capture = recorder(dataDir(), { memory });
    const chunks = Array.from({ length: 100 }, (_, index) => Buffer.alloc(10 * 1024, index));
    // All in one turn of the event loop: the writer cannot drain anything meanwhile.
    for (const chunk of chunks) capture.fromContainer(chunk);
    assert.ok(peak <= 256 * 1024 + 1024, `the queue held ${peak} bytes`);
    const packets = readPcap(fs.readFileSync((await capture.close())!));
    assert.ok(droppedNote(packets).packets > 0);
    assert.equal(held, 0);
  });

  test('a failing disk ends the recording quietly and close reports it', async () => {
    const dir = dataDir();
    // A file where the capture folder should be: creating the folders fails.
    fs.writeFileSync(path.join(dir, 'files'), 'in the way');
    const capture = recorder(dir);
    assert.doesNotThrow(() => {
      capture.fromClient(Buffer.from('a'));
      capture.fromContainer(Buffer.from('b'));
    });
    await assert.rejects(capture.close());
    capture.fromClient(Buffer.from('c'));
  });

  test('a target that cannot be recorded never throws into the relay', async () => {
    const dir = dataDir();
    const capture = startCapture(
      { dataDir: dir, challengeId: 0, participationId: 1, containerRowId: 'not-a-row-id' },
      ipv4,
      meta,
    );
    assert.doesNotThrow(() => capture.fromClient(Buffer.from('a')));
    await assert.rejects(capture.close(), RangeError);
    assert.deepEqual(fs.readdirSync(dir), []);
  });
});

describe('pcap encoding', () => {
  test('a checksum that computes to zero is sent as 0xffff', () => {
    const from = { mac: dummyMac(1), address: ipv6Bytes('2001:db8::2'), port: 1234 };
    const to = { mac: dummyMac(2), address: ipv6Bytes('2001:db8::3'), port: 80 };
    const probe = encodePacket(0, from, to, Buffer.alloc(2));
    // With a zero payload word the checksum is c; a payload word of c makes the sum 0xffff, i.e. zero.
    const complement = probe.readUInt16BE(16 + 14 + 40 + 6);
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(complement);
    const record = encodePacket(0, from, to, payload);
    const frame = record.subarray(16);
    assert.equal(frame.readUInt16BE(14 + 40 + 6), 0xffff);
    const [packet] = readPcap(Buffer.concat([pcapGlobalHeader(), record]));
    assert.ok(packet!.checksumValid);
    assert.equal(udpChecksum(from.address, to.address, withZeroChecksum(frame), 14 + 40), 0xffff);
  });

  test('IPv4 becomes ::ffff:a.b.c.d and IPv6 keeps its 16 bytes', () => {
    assert.equal(ipv6Bytes('10.1.2.3').toString('hex'), '00000000000000000000ffff0a010203');
    assert.equal(ipv6Bytes('2001:db8::1').toString('hex'), '20010db8000000000000000000000001');
    assert.equal(ipv6Bytes('::').toString('hex'), '0'.repeat(32));
    assert.equal(ipv6Bytes('1:2:3:4:5:6:7:8').toString('hex'), '00010002000300040005000600070008');
  });
});

describe('capture layout', () => {
  test('file names are unique per connection and match the pattern', () => {
    const names = new Set(Array.from({ length: 200 }, () => newCaptureFileName(randomUUID())));
    assert.equal(names.size, 200);
    for (const name of names) assert.match(name, /^[0-9a-f]{8}-[A-Za-z0-9_-]+\.pcap$/);
    assert.throws(() => newCaptureFileName('../etc'));
  });

  test('path helpers refuse traversal and malformed ids', () => {
    const dir = '/data';
    assert.equal(captureFilePath(dir, 1, 2, 'abcdef01-x.pcap'), '/data/files/capture/1/2/abcdef01-x.pcap');
    for (const name of [
      '../abcdef01-x.pcap',
      'abcdef01-x.pcap/..',
      'abcdef01-../x.pcap',
      '..',
      'abcdef01-x.pcap\0',
      '.abcdef01-x.pcap.tmp',
      'ABCDEF01-x.pcap',
      'abcdef01-x.txt',
      'abcdef01-.pcap',
    ]) {
      assert.equal(isCaptureFileName(name), false, name);
      assert.throws(() => captureFilePath(dir, 1, 2, name), RangeError, name);
    }
    assert.throws(() => teamCaptureDir(dir, 0, 1), RangeError);
    assert.throws(() => teamCaptureDir(dir, 1, -1), RangeError);
    assert.throws(() => teamCaptureDir(dir, 1.5, 1), RangeError);
    assert.throws(() => teamCaptureDir(dir, 2 ** 31, 1), RangeError);
    assert.equal(parseCaptureId('12'), 12);
    for (const name of ['012', '-1', '0', '1e3', '12a', '99999999999']) assert.equal(parseCaptureId(name), undefined);
  });
});

function withZeroChecksum(frame: Buffer): Buffer {
  const copy = Buffer.from(frame);
  copy.writeUInt16BE(0, 14 + 40 + 6);
  return copy;
}
