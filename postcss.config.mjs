// Tailwind 4 runs as a PostCSS plugin; its configuration lives in app/globals.css.
export default {
  plugins: {
    '@tailwindcss/postcss': {},
  },
};
