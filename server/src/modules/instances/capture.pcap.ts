import net from 'node:net';

/**
 * The bytes of a classic pcap file (reference §5.10): little-endian, microsecond timestamps, link type
 * Ethernet. A proxied connection is a byte stream, so each recorded chunk is dressed as a synthetic
 * Ethernet/IPv6/UDP datagram between the two real endpoints. UDP rather than TCP because there are no
 * sequence numbers, handshakes or retransmissions to invent, and every analyser still shows the
 * payloads in order with their direction ("Follow UDP stream").
 */

const PCAP_MAGIC_MICROSECONDS = 0xa1b2c3d4;
const LINKTYPE_ETHERNET = 1;
const ETHERTYPE_IPV6 = 0x86dd;
const IP_PROTOCOL_UDP = 17;
const HOP_LIMIT = 64;

export const PCAP_GLOBAL_HEADER_SIZE = 24;
const RECORD_HEADER_SIZE = 16;
const ETHERNET_HEADER_SIZE = 14;
const IPV6_HEADER_SIZE = 40;
const UDP_HEADER_SIZE = 8;

/** Bytes a record adds to its payload: pcap record header, Ethernet, IPv6 and UDP headers. */
export const PACKET_OVERHEAD = RECORD_HEADER_SIZE + ETHERNET_HEADER_SIZE + IPV6_HEADER_SIZE + UDP_HEADER_SIZE;

/** UDP's 16-bit length field counts its own header too, so one datagram carries at most 65 527 bytes. */
export const MAX_UDP_PAYLOAD = 0xffff - UDP_HEADER_SIZE;

// Large enough for the biggest frame written (Ethernet + IPv6 + a full UDP datagram = 65 589 bytes),
// so no reader ever truncates one; 262 144 is also what tcpdump uses.
const SNAPSHOT_LENGTH = 262_144;

/** One side of a synthetic datagram. */
export interface PacketEndpoint {
  mac: Buffer;
  /** 16 bytes, see `ipv6Bytes`. */
  address: Buffer;
  port: number;
}

export function pcapGlobalHeader(): Buffer {
  const header = Buffer.alloc(PCAP_GLOBAL_HEADER_SIZE);
  header.writeUInt32LE(PCAP_MAGIC_MICROSECONDS, 0);
  header.writeUInt16LE(2, 4);
  header.writeUInt16LE(4, 6);
  // Bytes 8–15: time zone offset and accuracy, both 0 as every writer sets them.
  header.writeUInt32LE(SNAPSHOT_LENGTH, 16);
  header.writeUInt32LE(LINKTYPE_ETHERNET, 20);
  return header;
}

/** A locally administered (02:…) unicast MAC whose last byte names the role, so it is never a real card's. */
export function dummyMac(role: number): Buffer {
  return Buffer.from([0x02, 0, 0, 0, 0, role & 0xff]);
}

function hexGroups(text: string): number[] {
  if (text === '') return [];
  return text.split(':').flatMap((group) => {
    if (!group.includes('.')) return [parseInt(group, 16)];
    // An IPv6 text may end in dotted IPv4 ("::ffff:10.0.0.1"): that is the last two groups.
    const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  });
}

/**
 * The 16 bytes of an address as written in the capture: IPv6 as is (a zone suffix dropped), IPv4 as
 * the IPv4-mapped `::ffff:a.b.c.d`, and anything unparseable (an unknown peer) as `::`.
 */
export function ipv6Bytes(address: string): Buffer {
  const bytes = Buffer.alloc(16);
  if (typeof address !== 'string') return bytes;
  if (net.isIPv4(address)) {
    bytes.writeUInt16BE(0xffff, 10);
    address.split('.').forEach((part, index) => (bytes[12 + index] = Number(part)));
    return bytes;
  }
  const text = address.split('%')[0] ?? '';
  if (!net.isIPv6(text)) return bytes;
  const [head = '', tail] = text.split('::');
  const before = hexGroups(head);
  const after = tail === undefined ? [] : hexGroups(tail);
  const groups = [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  groups.forEach((group, index) => bytes.writeUInt16BE(group, index * 2));
  return bytes;
}

// One's-complement arithmetic is done in plain numbers and folded at the end: at most 32 768 words of
// 16 bits each, far below 2^53.
function sumWords(buffer: Buffer, start: number, end: number): number {
  let sum = 0;
  let offset = start;
  for (; offset + 1 < end; offset += 2) sum += buffer.readUInt16BE(offset);
  // An odd last byte is summed as if followed by a zero byte.
  if (offset < end) sum += buffer[offset]! << 8;
  return sum;
}

/**
 * The UDP checksum over the IPv6 pseudo-header (source, destination, upper-layer length, next header)
 * and the UDP header and data found at `udpOffset` (checksum field zero). IPv6 makes it mandatory, and
 * a computed zero is sent as 0xffff because zero means "no checksum".
 */
export function udpChecksum(source: Buffer, destination: Buffer, frame: Buffer, udpOffset: number): number {
  const udpLength = frame.length - udpOffset;
  let sum =
    sumWords(source, 0, 16) +
    sumWords(destination, 0, 16) +
    (udpLength >>> 16) +
    (udpLength & 0xffff) +
    IP_PROTOCOL_UDP +
    sumWords(frame, udpOffset, frame.length);
  while (sum > 0xffff) sum = (sum & 0xffff) + Math.floor(sum / 0x10000);
  const checksum = ~sum & 0xffff;
  return checksum === 0 ? 0xffff : checksum;
}

const validPort = (port: number) => (Number.isInteger(port) && port >= 0 && port <= 0xffff ? port : 0);

/**
 * One pcap record (record header + frame) carrying `payload` from `from` to `to`, timestamped
 * `timestampUs` microseconds after the Unix epoch. The payload must fit one datagram.
 */
export function encodePacket(timestampUs: number, from: PacketEndpoint, to: PacketEndpoint, payload: Buffer): Buffer {
  if (payload.length > MAX_UDP_PAYLOAD) throw new RangeError(`a datagram holds at most ${MAX_UDP_PAYLOAD} bytes`);
  const frameLength = ETHERNET_HEADER_SIZE + IPV6_HEADER_SIZE + UDP_HEADER_SIZE + payload.length;
  const record = Buffer.allocUnsafe(RECORD_HEADER_SIZE + frameLength);
  const seconds = Math.floor(timestampUs / 1_000_000);
  record.writeUInt32LE(seconds >>> 0, 0);
  record.writeUInt32LE(timestampUs - seconds * 1_000_000, 4);
  record.writeUInt32LE(frameLength, 8);
  record.writeUInt32LE(frameLength, 12);

  const frame = record.subarray(RECORD_HEADER_SIZE);
  to.mac.copy(frame, 0);
  from.mac.copy(frame, 6);
  frame.writeUInt16BE(ETHERTYPE_IPV6, 12);

  const ip = ETHERNET_HEADER_SIZE;
  const udpLength = UDP_HEADER_SIZE + payload.length;
  // Version 6, traffic class 0, flow label 0.
  frame.writeUInt32BE(0x60000000, ip);
  frame.writeUInt16BE(udpLength, ip + 4);
  frame[ip + 6] = IP_PROTOCOL_UDP;
  frame[ip + 7] = HOP_LIMIT;
  from.address.copy(frame, ip + 8);
  to.address.copy(frame, ip + 24);

  const udp = ip + IPV6_HEADER_SIZE;
  frame.writeUInt16BE(validPort(from.port), udp);
  frame.writeUInt16BE(validPort(to.port), udp + 2);
  frame.writeUInt16BE(udpLength, udp + 4);
  frame.writeUInt16BE(0, udp + 6);
  payload.copy(frame, udp + UDP_HEADER_SIZE);
  frame.writeUInt16BE(udpChecksum(from.address, to.address, frame, udp), udp + 6);
  return record;
}

/** Records for a payload of any size, cut into datagrams UDP can carry, all with the same timestamp. */
export function encodePackets(
  timestampUs: number,
  from: PacketEndpoint,
  to: PacketEndpoint,
  payload: Buffer,
): Buffer[] {
  const records: Buffer[] = [];
  for (let offset = 0; offset < payload.length; offset += MAX_UDP_PAYLOAD) {
    records.push(encodePacket(timestampUs, from, to, payload.subarray(offset, offset + MAX_UDP_PAYLOAD)));
  }
  return records;
}
