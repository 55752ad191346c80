# Multi-stage build on Debian bookworm, mirroring the README's install steps.
# docker build -t reversi:latest .   (the Kubernetes manifests in deploy/ run this image: docs/deploy.md)
FROM debian:bookworm AS build
# libhiredis-dev: reversi-match's distributed mode (--queue redis://..., reversi-match worker).
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends \
      build-essential cmake ninja-build libboost-dev libspdlog-dev doctest-dev libhiredis-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# A portable binary: no -march=native in an image that may run on another CPU.
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DREVERSI_NATIVE=OFF -DREVERSI_BUILD_TESTS=OFF \
 && cmake --build build

FROM debian:bookworm-slim
# The runtime libraries of the binaries (ldd): spdlog and fmt, hiredis for reversi-match's Redis queue.
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends libspdlog1.10 libfmt9 libhiredis0.14 \
 && rm -rf /var/lib/apt/lists/*
# A fixed non-root user: deploy/ runs every container as UID/GID 10001 with runAsNonRoot, which needs a numeric USER.
RUN groupadd --system --gid 10001 reversi \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin reversi
COPY --from=build /src/build/protocol/reversi-engine /src/build/tools/reversi-* /usr/local/bin/
# The shipped opening book (--book /usr/share/reversi/opening.book); the pattern weights are compiled in.
COPY engine/data/opening.book /usr/share/reversi/opening.book
USER 10001:10001
# 7878: the text protocol (--listen), 8080: the web board and its WebSocket API (--http).
EXPOSE 7878 8080
# The server listens on all interfaces inside the container only; publish the ports explicitly, e.g.
#   docker run --rm -p 127.0.0.1:8080:8080 reversi:latest --http 0.0.0.0:8080 --book /usr/share/reversi/opening.book
ENTRYPOINT ["reversi-engine"]
