/** Pages the bench serves: a login form, a news article with navigation, a data table. */
const nav = Array.from(
  { length: 25 },
  (_, index) => `<li><a href="/s${index}">Section ${index}</a></li>`,
).join('');
const paragraphs = Array.from(
  { length: 12 },
  (_, index) =>
    `<p>Paragraph ${index} of the story, with a <a href="/ref${index}">reference</a> and some plain words to read.</p>`,
).join('');
const rows = Array.from(
  { length: 20 },
  (_, index) => `<tr><td>Item ${index}</td><td>${index * 3} €</td><td><button>Buy</button></td></tr>`,
).join('');

export const PAGES: Record<string, string> = {
  login: `<!doctype html><title>Sign in</title><header><a href="/">Home</a></header><main><h1>Sign in</h1>
    <form><label>Email <input type=email name=e></label><label>Password <input type=password name=p></label>
    <label><input type=checkbox> Remember me</label><button>Sign in</button></form><a href="/forgot">Forgot password?</a></main>`,
  article: `<!doctype html><title>News</title><nav><ul>${nav}</ul></nav><main><article><h1>Headline</h1>${paragraphs}</article></main>
    <footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer>`,
  table: `<!doctype html><title>Prices</title><h1>Prices</h1><table><thead><tr><th>Name</th><th>Price</th><th></th></tr></thead>
    <tbody>${rows}</tbody></table>`,
};
