import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}"],
  // The calendar's week grid places each session on 15-minute rows (app/features/calendar/week-grid.tsx): classes,
  // since the content security policy allows no inline styles.
  safelist: [{ pattern: /^row-start-\d+$/ }, { pattern: /^row-span-\d+$/ }],
  theme: {
    extend: {
      gridRowStart: Object.fromEntries(Array.from({ length: 97 }, (_, i) => [String(i + 1), String(i + 1)])),
      gridRow: Object.fromEntries(Array.from({ length: 96 }, (_, i) => [`span-${i + 1}`, `span ${i + 1} / span ${i + 1}`])),
      gridTemplateRows: { "quarters-64": "repeat(64, 12px)", "quarters-96": "repeat(96, 12px)" },
      colors: {
        brand: { 50: "#eef6ff", 100: "#d9eaff", 500: "#2563eb", 600: "#1d4ed8", 700: "#1e40af" },
      },
    },
  },
  plugins: [],
} satisfies Config;
