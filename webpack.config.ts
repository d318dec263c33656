import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import webpack, { type Configuration } from 'webpack';

const ROOT = __dirname;
const LOCALES_DIR = path.join(ROOT, 'locales');
const OUTPUT_DIR = path.resolve(process.env.DIST_DIR ?? path.join(ROOT, 'dist'));
/** The server's texts are not shipped to browsers. */
const SERVER_NAMESPACE = 'server.json';

interface LocaleBundle {
  language: string;
  file: string;
  source: string;
  inputs: string[];
}

/** One JSON per language merging its namespaces, named by content hash (spec §7 "Translations"). */
function localeBundles(): LocaleBundle[] {
  return fs
    .readdirSync(LOCALES_DIR)
    .filter((language) => fs.statSync(path.join(LOCALES_DIR, language)).isDirectory())
    .map((language) => {
      const inputs = fs
        .readdirSync(path.join(LOCALES_DIR, language))
        .filter((file) => file.endsWith('.json') && file !== SERVER_NAMESPACE)
        .sort()
        .map((file) => path.join(LOCALES_DIR, language, file));
      const merged = Object.fromEntries(
        inputs.map((file) => [path.basename(file, '.json'), JSON.parse(fs.readFileSync(file, 'utf8')) as unknown]),
      );
      const source = JSON.stringify(merged);
      const hash = crypto.createHash('sha256').update(source).digest('hex').slice(0, 8);
      return { language, file: `${language}.${hash}.json`, source, inputs };
    });
}

class LocaleBundlesPlugin {
  constructor(private readonly bundles: LocaleBundle[]) {}

  apply(compiler: webpack.Compiler) {
    compiler.hooks.thisCompilation.tap('LocaleBundlesPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'LocaleBundlesPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const bundle of this.bundles) {
            compilation.emitAsset(`static/${bundle.file}`, new webpack.sources.RawSource(bundle.source));
            bundle.inputs.forEach((input) => compilation.fileDependencies.add(input));
          }
        },
      );
    });
  }
}

/**
 * Hashed bundles and language files, compressed once here at the highest levels (brotli 11, gzip 9)
 * so the server only picks a file by Accept-Encoding and never compresses them per request.
 * index.html is left out: the server fills it in per request. Files under 1 KB gain too little.
 */
function precompressed(): webpack.WebpackPluginInstance[] {
  const common = { test: /\.(js|css|json|svg)$/, threshold: 1024, minRatio: 0.8 };
  return [
    new CompressionPlugin<zlib.BrotliOptions>({
      ...common,
      filename: '[path][base].br',
      algorithm: 'brotliCompress',
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY } },
    }),
    new CompressionPlugin({
      ...common,
      filename: '[path][base].gz',
      algorithm: 'gzip',
      compressionOptions: { level: 9 },
    }),
  ];
}

/** The platform's own version, shown on the About page. */
function appVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

export default (_env: unknown, argv: { mode?: Configuration['mode'] }): Configuration => {
  const production = argv.mode !== 'development';
  const bundles = localeBundles();
  return {
    mode: production ? 'production' : 'development',
    entry: { main: path.join(ROOT, 'src/app/main.tsx') },
    output: {
      path: OUTPUT_DIR,
      publicPath: '/',
      filename: 'js/[name].[contenthash:8].js',
      chunkFilename: 'js/[name].[contenthash:8].chunk.js',
      clean: true,
    },
    devtool: production ? false : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      alias: { '@': path.join(ROOT, 'src') },
    },
    module: {
      rules: [
        {
          test: /\.[jt]sx?$/,
          include: path.join(ROOT, 'src'),
          loader: 'esbuild-loader',
          options: { target: 'es2022', jsx: 'automatic' },
        },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({
        template: path.join(ROOT, 'src/app/index.html'),
        inject: 'body',
      }),
      new webpack.DefinePlugin({
        __LOCALE_FILES__: JSON.stringify(Object.fromEntries(bundles.map((bundle) => [bundle.language, bundle.file]))),
        __APP_VERSION__: JSON.stringify(appVersion()),
      }),
      new LocaleBundlesPlugin(bundles),
      ...(production ? precompressed() : []),
    ],
    optimization: {
      runtimeChunk: 'single',
      moduleIds: 'deterministic',
      // Default terser: slower than esbuild's minifier but ~15 % smaller chunks (stack-notes §6).
      splitChunks: {
        chunks: 'all',
        cacheGroups: {
          react: {
            test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
            name: 'react',
            priority: 20,
          },
          // `initial` keeps MUI parts that only lazy pages (data grid, charts) use out of the shell chunk.
          mui: {
            test: /[\\/]node_modules[\\/](@mui[\\/](material|system|utils|styled-engine|private-theming)|@emotion)[\\/]/,
            name: 'mui',
            chunks: 'initial',
            priority: 10,
          },
        },
      },
    },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
};
