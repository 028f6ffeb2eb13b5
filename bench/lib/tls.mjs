// tls.mjs: a self-signed certificate for 127.0.0.1 (Debian's openssl), for
// serving a bench's pages over HTTPS and HTTP/2 (scripts/serve.mjs `tls`);
// the browser is told to accept it (playwright's ignoreHTTPSErrors).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** -> {key, cert} (PEM), made now, valid for a day. */
export function selfSigned() {
  const dir = mkdtempSync(join(tmpdir(), 'attention-tls-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
