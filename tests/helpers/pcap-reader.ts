/**
 * A small, independent reader of classic pcap files for tests: the global header, every record, and
 * the Ethernet/IPv6/UDP layers of each frame, with the UDP checksum recomputed from scratch. It throws
 * on anything malformed, so parsing a capture is already a validity check.
 */

export interface PcapFile {
  versionMajor: number;
  versionMinor: number;
  snapLength: number;
  linkType: number;
  /** Timestamps in microseconds (true) or nanoseconds. */
  microseconds: boolean;
  packets: PcapPacket[];
}

export interface PcapPacket {
  /** Microseconds since the Unix epoch. */
  timestampUs: number;
  sourceMac: string;
  destinationMac: string;
  /** Text form: `::ffff:a.b.c.d` for IPv4-mapped addresses, else lower-case with `::` compression. */
  source: string;
  destination: string;
  sourcePort: number;
  destinationPort: number;
  hopLimit: number;
  checksum: number;
  /** The checksum field equals the one computed over the pseudo-header, header and payload. */
  checksumValid: boolean;
  payload: Buffer;
}

function fail(message: string): never {
  throw new Error(`pcap: ${message}`);
}

const mac = (bytes: Buffer) => [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join(':');

export function formatIpv6(bytes: Buffer): string {
  if (bytes.subarray(0, 10).every((byte) => byte === 0) && bytes.readUInt16BE(10) === 0xffff) {
    return `::ffff:${[...bytes.subarray(12)].join('.')}`;
  }
  const groups = Array.from({ length: 8 }, (_, index) => bytes.readUInt16BE(index * 2));
  // RFC 5952: the longest run (of at least two) of zero groups becomes "::", the first one on a tie.
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8;) {
    let end = start;
    while (end < 8 && groups[end] === 0) end += 1;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end === start ? start + 1 : end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function onesComplementSum(bytes: Buffer): number {
  const even = bytes.length % 2 ? Buffer.concat([bytes, Buffer.alloc(1)]) : bytes;
  let sum = 0;
  for (let offset = 0; offset < even.length; offset += 2) sum += even.readUInt16BE(offset);
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  return sum;
}

function computeChecksum(source: Buffer, destination: Buffer, udp: Buffer): number {
  const pseudo = Buffer.alloc(40);
  source.copy(pseudo, 0);
  destination.copy(pseudo, 16);
  pseudo.writeUInt32BE(udp.length, 32);
  pseudo[39] = 17;
  const zeroed = Buffer.from(udp);
  zeroed.writeUInt16BE(0, 6);
  const checksum = ~onesComplementSum(Buffer.concat([pseudo, zeroed])) & 0xffff;
  return checksum === 0 ? 0xffff : checksum;
}

function decodeFrame(frame: Buffer, timestampUs: number): PcapPacket {
  if (frame.length < 14 + 40 + 8) fail(`frame of ${frame.length} bytes is too short`);
  if (frame.readUInt16BE(12) !== 0x86dd) fail('not an IPv6 frame');
  const ip = frame.subarray(14);
  if (ip[0]! >> 4 !== 6) fail('IP version is not 6');
  const payloadLength = ip.readUInt16BE(4);
  if (ip[6] !== 17) fail(`next header ${ip[6]} is not UDP`);
  if (40 + payloadLength !== ip.length) fail('IPv6 payload length does not match the frame');
  const source = ip.subarray(8, 24);
  const destination = ip.subarray(24, 40);
  const udp = ip.subarray(40);
  const udpLength = udp.readUInt16BE(4);
  if (udpLength !== udp.length) fail('UDP length does not match the IPv6 payload length');
  const checksum = udp.readUInt16BE(6);
  return {
    timestampUs,
    destinationMac: mac(frame.subarray(0, 6)),
    sourceMac: mac(frame.subarray(6, 12)),
    source: formatIpv6(source),
    destination: formatIpv6(destination),
    sourcePort: udp.readUInt16BE(0),
    destinationPort: udp.readUInt16BE(2),
    hopLimit: ip[7]!,
    checksum,
    checksumValid: checksum === computeChecksum(source, destination, udp),
    payload: Buffer.from(udp.subarray(8)),
  };
}

export function parsePcap(file: Buffer): PcapFile {
  if (file.length < 24) fail('shorter than a global header');
  const magic = file.readUInt32LE(0);
  let little: boolean;
  let microseconds: boolean;
  if (magic === 0xa1b2c3d4 || magic === 0xa1b23c4d) {
    little = true;
    microseconds = magic === 0xa1b2c3d4;
  } else if (file.readUInt32BE(0) === 0xa1b2c3d4 || file.readUInt32BE(0) === 0xa1b23c4d) {
    little = false;
    microseconds = file.readUInt32BE(0) === 0xa1b2c3d4;
  } else {
    fail(`unknown magic 0x${magic.toString(16)}`);
  }
  const u16 = (offset: number) => (little ? file.readUInt16LE(offset) : file.readUInt16BE(offset));
  const u32 = (offset: number) => (little ? file.readUInt32LE(offset) : file.readUInt32BE(offset));
  const result: PcapFile = {
    versionMajor: u16(4),
    versionMinor: u16(6),
    snapLength: u32(16),
    linkType: u32(20),
    microseconds,
    packets: [],
  };
  if (result.linkType !== 1) fail(`link type ${result.linkType} is not Ethernet`);
  let offset = 24;
  while (offset < file.length) {
    if (offset + 16 > file.length) fail('truncated record header');
    const seconds = u32(offset);
    const fraction = u32(offset + 4);
    const captured = u32(offset + 8);
    const original = u32(offset + 12);
    if (fraction >= (microseconds ? 1e6 : 1e9)) fail('sub-second part out of range');
    if (captured !== original) fail('truncated packet');
    if (captured > result.snapLength) fail('packet longer than the snapshot length');
    if (offset + 16 + captured > file.length) fail('truncated packet data');
    const timestampUs = seconds * 1e6 + (microseconds ? fraction : Math.floor(fraction / 1000));
    result.packets.push(decodeFrame(file.subarray(offset + 16, offset + 16 + captured), timestampUs));
    offset += 16 + captured;
  }
  return result;
}

/** The packets of a capture, throwing unless the file is well-formed and every UDP checksum is right. */
export function readPcap(file: Buffer): PcapPacket[] {
  const { packets } = parsePcap(file);
  const wrong = packets.findIndex((packet) => !packet.checksumValid);
  if (wrong >= 0) fail(`packet ${wrong} has a wrong UDP checksum`);
  return packets;
}
