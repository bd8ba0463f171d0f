#include "app/egl_context.hpp"

#include <glad/egl.h>
#include <glad/gl.h>

namespace app {

namespace {
EGLDisplay platformDisplay(EGLenum platform, void* native) {
  if (!eglGetPlatformDisplayEXT) return EGL_NO_DISPLAY;
  return eglGetPlatformDisplayEXT(platform, native, nullptr);
}
}  // namespace

HeadlessContext::~HeadlessContext() {
  if (display_) {
    eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_) eglDestroyContext(display_, context_);
    eglTerminate(display_);
  }
}

bool HeadlessContext::create() {
  // The first load sees no display and reports EGL 1.0: enough for the client extensions that
  // give eglGetPlatformDisplayEXT (docs/architecture.md#dependencies-and-platform-notes). Load
  // again once a display is initialised.
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) {
    error_ = "cannot load libEGL (install libegl1 and Mesa's libegl-mesa0)";
    return false;
  }
  EGLDisplay dpy = platformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY);
  std::string platform = "surfaceless";
  EGLint major = 0, minor = 0;
  if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
    dpy = EGL_NO_DISPLAY;
    // the device platform: the first EGL device (Mesa's software device included)
    EGLDeviceEXT devices[8];
    EGLint count = 0;
    if (eglQueryDevicesEXT && eglQueryDevicesEXT(8, devices, &count) && count > 0) {
      for (EGLint i = 0; i < count && dpy == EGL_NO_DISPLAY; ++i) {
        EGLDisplay d = platformDisplay(EGL_PLATFORM_DEVICE_EXT, devices[i]);
        if (d != EGL_NO_DISPLAY && eglInitialize(d, &major, &minor)) dpy = d;
      }
      platform = "device";
    }
  }
  if (dpy == EGL_NO_DISPLAY) {
    error_ = "no EGL display (neither Mesa's surfaceless nor a device platform is available)";
    return false;
  }
  display_ = dpy;
  gladLoaderLoadEGL(dpy);
  if (!eglBindAPI(EGL_OPENGL_API)) {
    error_ = "EGL cannot bind the desktop OpenGL API";
    return false;
  }
  const EGLint configAttribs[] = {EGL_RENDERABLE_TYPE,
                                  EGL_OPENGL_BIT,
                                  EGL_RED_SIZE,
                                  8,
                                  EGL_GREEN_SIZE,
                                  8,
                                  EGL_BLUE_SIZE,
                                  8,
                                  EGL_DEPTH_SIZE,
                                  24,
                                  EGL_NONE};
  EGLConfig config = nullptr;
  EGLint n = 0;
  if (!eglChooseConfig(dpy, configAttribs, &config, 1, &n) || n < 1) {
    // surfaceless displays may expose no config with a depth buffer: FBOs bring their own
    const EGLint any[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    if (!eglChooseConfig(dpy, any, &config, 1, &n) || n < 1) config = nullptr;
  }
  const EGLint ctxAttribs[] = {EGL_CONTEXT_MAJOR_VERSION,
                               3,
                               EGL_CONTEXT_MINOR_VERSION,
                               3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                               EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctxAttribs);
  if (ctx == EGL_NO_CONTEXT) {
    error_ = "EGL cannot create an OpenGL 3.3 core context";
    return false;
  }
  context_ = ctx;
  if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
    error_ = "EGL cannot make the context current without a surface";
    return false;
  }
  if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress))) {
    error_ = "cannot load the OpenGL functions through EGL";
    return false;
  }
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  description_ = "EGL " + std::to_string(major) + "." + std::to_string(minor) + " " + platform +
                 ", " + (renderer ? renderer : "?") + ", OpenGL " + (version ? version : "?");
  return true;
}

}  // namespace app
