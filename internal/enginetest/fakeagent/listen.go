package main

import (
	"encoding/binary"
	"fmt"
	"net"
	"strconv"
	"time"
)

// listen receives UDP on port, every address, for ms milliseconds: it
// prints "listening" once bound, then "got <mark>" for each datagram, its
// first 4 bytes in hex. It returns false when it cannot listen.
func listen(port, ms string) bool {
	p, err := strconv.ParseUint(port, 10, 16)
	d, derr := strconv.Atoi(ms)
	if err != nil || derr != nil {
		fmt.Println("error: usage: node listen PORT MILLISECONDS")
		return false
	}
	conn, err := net.ListenUDP("udp", &net.UDPAddr{Port: int(p)})
	if err != nil {
		fmt.Println("error", err)
		return false
	}
	defer conn.Close()
	fmt.Println("listening")
	_ = conn.SetReadDeadline(time.Now().Add(time.Duration(d) * time.Millisecond))
	buf := make([]byte, 2048)
	for {
		n, err := conn.Read(buf)
		if err != nil {
			return true
		}
		if n >= 4 {
			fmt.Printf("got %08x\n", binary.BigEndian.Uint32(buf))
		}
	}
}
