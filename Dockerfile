# sandtable in an image: the release binary with the bundled variants/ and
# scripts/, for running `simulate` shards (docs/scaling.md). Build it,
# tagged with the crate's version, with `.ci/image` (docker or podman), or:
#   docker build -t "sandtable:$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml)" .
# Then: docker run --rm sandtable:0.1.0 check classic_stratego

# The build: the Rust toolchain (the full image: Luau's C++ needs g++).
FROM rust:1-trixie AS build
# Built where the runtime image keeps the variants: the binary also looks
# for bundled variants under the folder it was built in.
WORKDIR /sandtable
COPY . .
RUN cargo build --release --locked --bin sandtable

# The runtime: a slim Debian of the same release as the toolchain's.
FROM debian:trixie-slim
COPY --from=build /sandtable/target/release/sandtable /usr/local/bin/sandtable
COPY variants /sandtable/variants
COPY scripts /sandtable/scripts
WORKDIR /sandtable
RUN useradd --create-home --uid 10001 sandtable
USER sandtable
ENTRYPOINT ["sandtable"]
CMD ["--help"]
