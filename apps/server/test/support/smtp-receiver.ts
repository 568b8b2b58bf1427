import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail the test's SMTP server received: the parsed message and its raw source. */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

/**
 * A real SMTP server for tests (the smtp-server package) on a free port of 127.0.0.1: it accepts every mail
 * (no TLS, no login) and keeps each, parsed by mailparser. stop() and start() again keep the same port, to play a
 * mail server that goes down and comes back.
 */
export class SmtpReceiver {
  readonly mails: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  async start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      // No reverse DNS of the client per connection (it cost about 100 ms a mail).
      disableReverseLookup: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          simpleParser(raw).then(
            (parsed: ParsedMail) => {
              const to = [parsed.to ?? []]
                .flat()
                .map((address) => address.text)
                .join(', ');
              this.mails.push({
                to,
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                raw,
              });
              callback();
            },
            (error: Error) => callback(error),
          );
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The mails to one address. */
  to(address: string): ReceivedMail[] {
    return this.mails.filter((mail) => mail.to.toLowerCase().includes(address.toLowerCase()));
  }
}

/** The token of the first link in a mail's text (`...?token=...`). */
export function linkToken(mail: ReceivedMail): string {
  const match = /[?&]token=([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match) throw new Error(`no link with a token in: ${mail.text}`);
  return match[1]!;
}
