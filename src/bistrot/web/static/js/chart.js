// @ts-check
// A small line chart drawn as inline SVG (no library): a rating after each game. The chart is an
// image with a spoken summary (its <title>); the numbers themselves are in the table beside it.

const NS = "http://www.w3.org/2000/svg";

/** An SVG element: s("line", {x1: 0, ...}, child...). */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) el.setAttribute(key, value);
  for (const child of children) if (child !== null) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

/** The chart of `values` (numbers, oldest first), summarised by `label` (its <title> and the
 * name a screen reader says). `id` names the title for aria-labelledby. */
export function lineChart(values, { label, id }) {
  const width = 320;
  const height = 160;
  const left = 40;  // room for the axis' figures
  const right = 10;
  const top = 12;
  const bottom = 14;
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 20;  // a flat line sits in the middle
  const floor = high === low ? low - span / 2 : low;
  const x = (i) => (values.length === 1 ? (left + width - right) / 2 : left + (i * (width - left - right)) / (values.length - 1));
  const y = (v) => top + (height - top - bottom) * (1 - (v - floor) / span);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const titleId = `${id}-title`;
  return s("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-labelledby": titleId,
    id, "data-points": String(values.length) },
  s("title", { id: titleId }, label),
  s("line", { class: "chart-axis", x1: left, y1: top, x2: left, y2: height - bottom }),
  s("line", { class: "chart-axis", x1: left, y1: height - bottom, x2: width - right, y2: height - bottom }),
  s("text", { class: "chart-tick", x: left - 4, y: y(high) + 4, "text-anchor": "end" }, String(high)),
  high !== low ? s("text", { class: "chart-tick", x: left - 4, y: y(low) + 4, "text-anchor": "end" }, String(low)) : null,
  values.length > 1 ? s("polyline", { class: "chart-line", points, fill: "none" }) : null,
  ...values.map((v, i) => s("circle", { class: "chart-dot", cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: values.length > 40 ? 1.5 : 3 })));
}
