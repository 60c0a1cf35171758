import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Answers `Expect: 100-continue` with `100 Continue`, so clients that ask first (curl for bodies
/// over 1 MB, PHP, .NET) send their body at once instead of waiting a second for an answer;
/// a body announced larger than the limit gets no `100` and is refused with 413 unread.
final class ContinueHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private let maxBodyBytes: Int

    init(maxBodyBytes: Int) { self.maxBodyBytes = maxBodyBytes }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let head) = unwrapInboundIn(data), head.headerFields[.expect]?.lowercased() == "100-continue" {
            let announced = head.headerFields[.contentLength].flatMap { Int($0) } ?? 0
            if announced <= maxBodyBytes {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
            }
        }
        context.fireChannelRead(data)
    }
}
