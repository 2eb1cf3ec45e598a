// A growable big-endian byte buffer: the snapshot format read by java.io.DataInputStream.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "pageAllocator.h"

// Its buffer lives in pages of its own (pageAllocator.h): a snapshot can be tens of MB.
using Bytes = std::vector<uint8_t, PageAllocator<uint8_t>>;

class ByteWriter {
  public:
    void u8(uint8_t v) { buf_.push_back(v); }
    void u16(uint16_t v) { u8(static_cast<uint8_t>(v >> 8)); u8(static_cast<uint8_t>(v)); }
    void u32(uint32_t v) { u16(static_cast<uint16_t>(v >> 16)); u16(static_cast<uint16_t>(v)); }
    void u64(uint64_t v) { u32(static_cast<uint32_t>(v >> 32)); u32(static_cast<uint32_t>(v)); }
    void f64(double v) {
        uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        u64(bits);
    }
    // Modified UTF-8 with a u16 length, as DataInputStream.readUTF expects. JVMTI hands out
    // modified UTF-8 already; an over-long string is replaced rather than cut mid-character.
    void utf(const std::string& s) {
        if (s.size() > 0xFFFF) {
            static const char kTooLong[] = "[name too long]";
            u16(sizeof kTooLong - 1);
            buf_.insert(buf_.end(), kTooLong, kTooLong + sizeof kTooLong - 1);
            return;
        }
        u16(static_cast<uint16_t>(s.size()));
        buf_.insert(buf_.end(), s.begin(), s.end());
    }
    void append(const ByteWriter& other) { buf_.insert(buf_.end(), other.buf_.begin(), other.buf_.end()); }
    const Bytes& bytes() const { return buf_; }
    Bytes release() { return std::move(buf_); }

  private:
    Bytes buf_;
};
