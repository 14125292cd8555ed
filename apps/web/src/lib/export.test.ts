import { describe, expect, it } from 'vitest';
import { csvBlob } from './export';

describe('web .csv exports', () => {
  it('a staff member named =HYPERLINK(…) stays text in the administrator’s export', async () => {
    const text = await csvBlob(['Nombre', 'Correo', 'Tickets'], [['=HYPERLINK("http://malo.example","Ver")', '@tutor', 3]]).text();
    const [, row] = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(row).toBe('"\'=HYPERLINK(""http://malo.example"",""Ver"")";\'@tutor;3');
  });
});
