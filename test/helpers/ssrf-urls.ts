/** The webhook URLs a safe target refuses (SSRF forms of the hostile review), with what the refusal names. */
const refusedFor = (reason: RegExp, urls: string[]): Array<[string, RegExp]> => urls.map((url) => [url, reason]);

export const REFUSED_URLS: Array<[string, RegExp]> = [
  ...refusedFor(/private/, ['http://10.0.0.1/hook', 'http://172.16.5.4/hook', 'http://192.168.1.1/hook', 'http://[fc00::1]/hook', 'http://[fd12:3456::1]/hook']),
  ...refusedFor(/link-local/, ['http://169.254.1.1/hook', 'http://[fe80::1]/hook']),
  ...refusedFor(/metadata/, ['http://169.254.169.254/latest/meta-data/', 'http://metadata.google.internal/computeMetadata/v1/', 'http://[fd00:ec2::254]/']),
  ...refusedFor(/unspecified/, ['http://0.0.0.0:22/', 'http://[::]/']),
  ...refusedFor(/metadata/, ['http://[::ffff:a9fe:a9fe]/', 'http://[::ffff:169.254.169.254]/']),
  ...refusedFor(/private/, ['http://[::ffff:10.0.0.1]/']),
  ...refusedFor(/metadata/, ['http://[64:ff9b::a9fe:a9fe]/']),
  ...refusedFor(/dotted-decimal/, ['http://2130706433/', 'http://0x7f000001/', 'http://0177.0.0.1/', 'http://2852039166/', 'http://127.1/', 'http://%31%32%37.0.0.1/']),
  ...refusedFor(/metadata/, ['http://127.0.0.1@169.254.169.254/', 'http://metadata.google.internal./']),
  ...refusedFor(/allow list/, ['http://hooks.example.com/x', 'http://8.8.8.8/x']),
  ...refusedFor(/scheme/, ['ftp://127.0.0.1/x']),
];
