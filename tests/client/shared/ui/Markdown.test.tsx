import { render } from '@testing-library/react';
import Markdown, { renderMarkdown } from '@/shared/ui/Markdown';

describe('Markdown', () => {
  it('renders markdown', () => {
    const html = renderMarkdown('# Rules\n\n**Be nice** and read [the FAQ](/posts/1).');
    expect(html).toContain('<h1>Rules</h1>');
    expect(html).toContain('<strong>Be nice</strong>');
    expect(html).toContain('<a href="/posts/1">the FAQ</a>');
  });

  it('strips <script>', () => {
    const html = renderMarkdown('Hello <script>alert(1)</script> world');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('alert(1)');
  });

  it('strips event handlers such as onerror=', () => {
    const html = renderMarkdown('<img src="x" onerror="alert(1)"> <div onclick="steal()">hi</div>');
    expect(html).not.toMatch(/onerror|onclick/i);
    expect(html).toContain('<img src="x">');
  });

  it('strips javascript: links, in markdown and in HTML', () => {
    const html = renderMarkdown(
      '[click](javascript:alert(1)) <a href="JaVaScRiPt:alert(2)">x</a> <a href="  javascript:alert(3)">y</a>',
    );
    expect(html).not.toMatch(/javascript:/i);
    expect(html).toContain('click');
  });

  it('strips iframes, forms and inline styles', () => {
    const html = renderMarkdown(
      '<iframe src="https://evil.example"></iframe><form action="/x"><input name="p"></form><p style="position:fixed">z</p>',
    );
    expect(html).not.toMatch(/<iframe|<form|<input|style=/i);
  });

  it('opens external links in a new tab without handing over the window', () => {
    const html = renderMarkdown('[docs](https://example.org)');
    expect(html).toContain('target="_blank"');
    expect(html).toContain('rel="noopener noreferrer"');
  });

  it('puts only sanitised HTML into the page', () => {
    const { container } = render(<Markdown source={'ok <img src=x onerror="window.hacked=1">'} />);
    expect(container.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();
  });
});
