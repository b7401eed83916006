import { csvCell, csvLine } from './csv';

describe('CSV cells', () => {
  it('neutralises every formula start in text with a leading apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1+1')).toBe("'+1+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe(`"'\rcmd"`);
  });

  it('leaves ordinary text and numbers alone, negative numbers included', () => {
    expect(csvCell('Ana Test')).toBe('Ana Test');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(-50)).toBe('-50');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('Doe, Jane')).toBe('"Doe, Jane"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvLine(['a', 1, null, '=x'])).toBe("a,1,,'=x\r\n");
  });
});
