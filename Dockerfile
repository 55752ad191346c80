# Multi-stage build on Debian bookworm, mirroring the README's install steps.
FROM debian:bookworm AS build
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends \
      build-essential cmake ninja-build libboost-dev libspdlog-dev doctest-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# A portable binary: no -march=native in an image that may run on another CPU.
RUN cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DREVERSI_NATIVE=OFF -DREVERSI_BUILD_TESTS=OFF \
 && cmake --build build

FROM debian:bookworm-slim
RUN apt-get update -qq && apt-get install -y -qq --no-install-recommends libspdlog1.10 libfmt9 \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/build/protocol/reversi-engine /src/build/tools/reversi-* /usr/local/bin/
EXPOSE 7878
# The server listens on all interfaces inside the container only; publish the port explicitly.
ENTRYPOINT ["reversi-engine"]
