/** Return URLs an attacker may try; none may lead off the site. */
export const OPEN_REDIRECT_VARIANTS = [
  '//evil.com', '//evil.com/', '///evil.com', '////evil.com', '/\\evil.com', '\\\\evil.com', '/\\/evil.com', '\\/evil.com',
  'https://evil.com', 'http://evil.com', 'https:evil.com', 'http:evil.com', 'https:/evil.com', 'https:\\\\evil.com',
  'javascript:alert(1)', 'JavaScript:alert(1)', 'javascript://%0aalert(1)', ' javascript:alert(1)', 'data:text/html,hi',
  'vbscript:msgbox(1)', '%2F%2Fevil.com', '%2f%2fevil.com', '/%2F%2Fevil.com', '/%2f/evil.com', '%5C%5Cevil.com',
  '/%5Cevil.com', '/%5cevil.com', '%252F%252Fevil.com', '/%252F%252Fevil.com', '/%255Cevil.com', 'evil.com',
  'evil.com/path', '.evil.com', '@evil.com', '/@evil.com', '//user@evil.com', '/ /evil.com', '/\t/evil.com', '/\n/evil.com',
  '/\r/evil.com', '\t//evil.com', '\n//evil.com', ' //evil.com', '/%09/evil.com', '/%0a/evil.com', '/%0d/evil.com',
  '//evil.com%2F..', '//evil%E3%80%82com', '/\u3002/evil.com', 'https://framemerch.example@evil.com', '//127.0.0.1',
  '//2130706433', '//0x7f.1', '//[::1]', 'ftp://evil.com', 'file:///etc/passwd', '/%00//evil.com', '//%00evil.com',
  '/.//evil.com'.slice(1), '\u0000/evil', '/\u0000/evil', 'http://', '//', '\\', '/%', '%E0%A4%A', 'x'.repeat(3000),
];
